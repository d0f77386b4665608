import Foundation
import ThumbHash

/// Times ThumbHash encode and decode per operation on 100x100 inputs, and optionally the Rust crate
/// (`thumbhash-rs`, through its Python binding) on the same pixels in the same run.
///
/// Each figure is the median over several rounds, so one noisy round on a busy machine does not decide it.
struct ThumbHashBenchmark {
    /// Milliseconds per operation for each workload.
    struct Figures: Codable, Sendable {
        var encodeOpaque: Double
        var encodeAlpha: Double
        var decodeOpaque: Double
        var decodeAlpha: Double
    }

    let iterations: Int
    static let rounds = 5
    static let side = 100

    /// Deterministic 100x100 inputs: a smooth opaque gradient with noise, and random pixels with alpha.
    static func inputs() -> (opaque: [UInt8], alpha: [UInt8]) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
        var opaque: [UInt8] = []
        var alpha: [UInt8] = []
        for y in 0..<side {
            for x in 0..<side {
                opaque += [UInt8(x * 2 + Int(next() & 15)), UInt8(y * 2), UInt8((x + y) & 255), 255]
                alpha += [next(), next(), next(), next()]
            }
        }
        return (opaque, alpha)
    }

    func measureSwift() throws -> Figures {
        let (opaque, alpha) = Self.inputs()
        let side = Self.side
        let opaqueHash = try ThumbHash.encode(width: Self.side, height: Self.side, rgba: opaque)
        let alphaHash = try ThumbHash.encode(width: Self.side, height: Self.side, rgba: alpha)
        return Figures(
            encodeOpaque: try time { try ThumbHash.encode(width: side, height: side, rgba: opaque) },
            encodeAlpha: try time { try ThumbHash.encode(width: side, height: side, rgba: alpha) },
            decodeOpaque: try time { opaqueHash.decode() },
            decodeAlpha: try time { alphaHash.decode() }
        )
    }

    /// Median milliseconds per call of `body` over `rounds` rounds of `iterations` calls, after a warm-up.
    ///
    /// The calls cross into the ThumbHash module, which the optimiser cannot see through, so none is
    /// discarded even though the results are.
    private func time<Result>(_ body: () throws -> Result) throws -> Double {
        for _ in 0..<max(1, iterations / 10) {
            _ = try body()
        }
        let clock = ContinuousClock()
        var perCall: [Double] = []
        for _ in 0..<Self.rounds {
            let elapsed = try clock.measure {
                for _ in 0..<iterations {
                    _ = try body()
                }
            }
            perCall.append(elapsed / .seconds(1) * 1000 / Double(iterations))
        }
        return perCall.sorted()[Self.rounds / 2]
    }

    /// Runs the same workloads through thumbhash-rs in the venv that `scripts/bench-setup.sh` prepares.
    func measureRust(python: URL) throws -> Figures {
        let (opaque, alpha) = Self.inputs()
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "variantd-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(opaque).write(to: folder.appending(path: "opaque.rgba"))
        try Data(alpha).write(to: folder.appending(path: "alpha.rgba"))

        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.rustScript, folder.path, String(iterations), String(Self.rounds)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError.comparisonFailed(status: process.terminationStatus)
        }
        return try JSONDecoder().decode(Figures.self, from: data)
    }

    enum BenchmarkError: Error, CustomStringConvertible {
        case comparisonFailed(status: Int32)

        var description: String {
            switch self {
            case .comparisonFailed(let status): "the thumbhash-rs benchmark exited with status \(status)"
            }
        }
    }

    /// Mirrors `time(_:)`: warm-up, then the median of rounds, in milliseconds per call.
    private static let rustScript = """
        import json, os, sys, time
        from thumbhash import rgba_to_thumb_hash, thumb_hash_to_rgba
        folder, iterations, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        def load(name):
            with open(os.path.join(folder, name), 'rb') as f:
                return f.read()
        def median_ms(call):
            for _ in range(max(1, iterations // 10)):
                call()
            per_call = []
            for _ in range(rounds):
                start = time.perf_counter()
                for _ in range(iterations):
                    call()
                per_call.append((time.perf_counter() - start) * 1000 / iterations)
            return sorted(per_call)[rounds // 2]
        opaque, alpha = load('opaque.rgba'), load('alpha.rgba')
        opaque_hash, alpha_hash = rgba_to_thumb_hash(100, 100, opaque), rgba_to_thumb_hash(100, 100, alpha)
        print(json.dumps({
            'encodeOpaque': median_ms(lambda: rgba_to_thumb_hash(100, 100, opaque)),
            'encodeAlpha': median_ms(lambda: rgba_to_thumb_hash(100, 100, alpha)),
            'decodeOpaque': median_ms(lambda: thumb_hash_to_rgba(opaque_hash)),
            'decodeAlpha': median_ms(lambda: thumb_hash_to_rgba(alpha_hash)),
        }))
        """
}
