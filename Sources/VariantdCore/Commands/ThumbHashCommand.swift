import Foundation
import ThumbHash

/// `variantd thumbhash`: the ThumbHash module by hand, and its conformance vectors. Its benchmark is a
/// command of the benchmarks' own, `thumbhash-bench`.
package struct ThumbHashCommand: Subcommand {
    package static let name = "thumbhash"
    package static let abstract = "Encode and decode ThumbHash placeholders, grade vectors."
    package static let usage = "thumbhash vectors <dir> | encode --size <w>x<h> <file> | decode <hash>"
    package static let details = """
        ACTIONS:
          vectors <dir>         Print the grader's candidate JSON lines for a vector folder
                                (manifest.json + cases/), one per case, for the vectors' grader.
          encode <file>         Print the base64 hash of raw RGBA8 pixels (not premultiplied).
          decode <hash>         Print a base64 hash's size, average colour, aspect ratio and alpha as JSON.

        OPTIONS:
          --size <w>x<h>        Width and height of the raw pixels given to encode (1...100 each).

        Their speed: see 'variantd help thumbhash-bench'.
        """

    private enum Action {
        case vectors(directory: String)
        case encode(file: String, width: Int, height: Int)
        case decode(hash: String)
    }

    private let action: Action

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        let size = try arguments.option("--size")
        let words = try arguments.positionals()
        guard let name = words.first else {
            throw UsageError("Missing action: vectors, encode or decode")
        }
        let operands = Array(words.dropFirst())
        if name != "encode", size != nil {
            throw UsageError("'--size' applies to encode only")
        }
        switch name {
        case "vectors":
            action = .vectors(directory: try Self.single(operands, "a vector folder"))
        case "encode":
            guard let size else {
                throw UsageError("encode needs '--size <w>x<h>' for raw RGBA input")
            }
            let (width, height) = try Self.dimensions(size)
            action = .encode(file: try Self.single(operands, "a raw RGBA file"), width: width, height: height)
        case "decode":
            action = .decode(hash: try Self.single(operands, "a base64 hash"))
        default:
            throw UsageError("Unknown action '\(name)': expected vectors, encode or decode")
        }
    }

    private static func single(_ operands: [String], _ what: String) throws(UsageError) -> String {
        guard operands.count == 1 else {
            throw UsageError(operands.isEmpty ? "Missing \(what)" : "Expected one operand, \(what)")
        }
        return operands[0]
    }

    private static func dimensions(_ text: String) throws(UsageError) -> (Int, Int) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw UsageError("'--size' takes <w>x<h>, such as 100x75, got '\(text)'")
        }
        return (width, height)
    }

    package func run() async throws -> ExitStatus {
        switch action {
        case .vectors(let directory):
            let suite = try VectorSuite(directory: URL(filePath: directory, directoryHint: .isDirectory))
            FileHandle.standardOutput.write(Data(try suite.candidate().utf8))
            return .success
        case .encode(let file, let width, let height):
            guard let data = FileManager.default.contents(atPath: file) else {
                Console.error("Error: cannot read '\(file)'")
                return .noInput
            }
            return report { () throws(ThumbHashError) in
                Console.out(try ThumbHash.encode(width: width, height: height, rgba: [UInt8](data)).base64)
            }
        case .decode(let text):
            return report { () throws(ThumbHashError) in
                Console.out(Self.describe(try ThumbHash(base64: text)))
            }
        }
    }

    /// Runs `body`, turning a rejected input into a message and exit status 1.
    private func report(_ body: () throws(ThumbHashError) -> Void) -> ExitStatus {
        do {
            try body()
            return .success
        } catch {
            Console.error("Error: \(error) (\(error.code))")
            return .failure
        }
    }

    private static func describe(_ hash: ThumbHash) -> String {
        let image = hash.decode()
        let color = hash.averageColor
        let fields = [
            "\"width\":\(image.width)",
            "\"height\":\(image.height)",
            "\"averageColor\":[\(color.red),\(color.green),\(color.blue),\(color.alpha)]",
            "\"approximateAspectRatio\":\(hash.approximateAspectRatio)",
            "\"hasAlpha\":\(hash.hasAlpha)",
            "\"bytes\":\(hash.bytes.count)",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }
}
