import Foundation
import VariantdCore
import Variants

/// How `--quality` makes its figures: every tool's renditions go into one scratch folder — ours by `variantd
/// batch` (this binary, and the `--previous` one) with the default bucket plus a lossless PNG twin of each
/// variant, pyvips' by `anchors/quality.py` — then every pair is scored in one run of `anchors/score.py`.
extension QualityComparison {
    /// The twin of variant `thumb` is `thumb-lossless`: the same settings, written as PNG.
    static let twinSuffix = "-lossless"

    /// Whether `scripts/bench-setup.sh` has made both venvs the mode runs.
    static var isInstalled: Bool {
        [BenchPaths.binaryPython, BenchPaths.scorePython].allSatisfy(FileManager.default.isExecutableFile)
    }

    /// Why there are no figures to show.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    static func measure(_ files: [String], previous: String?, auto: Bool = false) throws -> QualityComparison
    {
        guard isInstalled else {
            throw Unavailable(
                description: "bench --quality needs pyvips-binary and ssimulacra2: run scripts/bench-setup.sh"
            )
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-quality-\(UUID().uuidString)"
        ).path
        let sources = scratch + "/sources"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Numbered copies: the batch's object paths then name the picture, even where two share a name.
        for (index, file) in files.enumerated() {
            try FileManager.default.copyItem(
                atPath: file, toPath: "\(sources)/\(index)-\((file as NSString).lastPathComponent)")
        }
        let declaration = scratch + "/bucket.json"
        try twinnedDeclaration().write(to: URL(fileURLWithPath: declaration))

        Console.error("bench: quality, \(files.count) pictures: variantd")
        let declaredStart = ResourceUsage.endedChildrenCPUSeconds
        var tools = [
            try batch(
                Executable.current, tool: "variantd", declaration: declaration, sources: sources,
                out: scratch + "/ours", count: files.count)
        ]
        let declaredSeconds = ResourceUsage.endedChildrenCPUSeconds - declaredStart
        Console.error("bench: quality: pyvips")
        let pyvips = try anchor(files, out: scratch + "/pyvips")
        tools.append(pyvips)
        if let previous {
            Console.error("bench: quality: \(previous)")
            tools.append(
                try batch(
                    previous, tool: "previous", declaration: declaration, sources: sources,
                    out: scratch + "/previous", count: files.count))
        }
        var autoCost: AutoCost?
        if auto {
            Console.error("bench: quality: variantd, quality \"auto\"")
            let automatic = scratch + "/bucket-auto.json"
            try twinnedDeclaration(quality: "auto").write(to: URL(fileURLWithPath: automatic))
            let autoStart = ResourceUsage.endedChildrenCPUSeconds
            tools.append(
                try batch(
                    Executable.current, tool: "variantd-auto", declaration: automatic, sources: sources,
                    out: scratch + "/auto", count: files.count))
            autoCost = AutoCost(
                declaredSeconds: declaredSeconds,
                autoSeconds: ResourceUsage.endedChildrenCPUSeconds - autoStart)
        }

        let kept = files.indices.filter { index in tools.allSatisfy { $0.made[index] != nil } }
        let skipped = tools.flatMap(\.failures)
        for failure in skipped {
            Console.error("bench: quality: \(failure.tool) cannot render \(failure.file): \(failure.error)")
        }
        guard !kept.isEmpty else {
            throw Unavailable(description: "no picture was rendered by every tool")
        }
        let pairs = bucket.variants.flatMap { variant in
            tools.flatMap { tool in kept.compactMap { tool.made[$0]?[variant.name] } }
        }
        Console.error("bench: quality: scoring \(pairs.count) renditions")
        let (scorer, scores) = try score(pairs)
        var next = scores.makeIterator()
        let variants = bucket.variants.map { variant in
            let figures = tools.map { tool in
                QualityComparison.Renditions(
                    bytes: kept.compactMap { tool.made[$0]?[variant.name]?.bytes },
                    scores: kept.compactMap { _ in next.next() })
            }
            return Variant(
                name: variant.name, format: variant.format.rawValue, ours: figures[0], pyvips: figures[1],
                previous: previous == nil ? nil : figures[2], auto: auto ? figures.last : nil)
        }
        return QualityComparison(
            pictures: kept.map { files[$0] }, variants: variants, skipped: skipped, pyvipsTool: pyvips.tool,
            scorer: scorer, previousBinary: previous, autoCost: autoCost)
    }

    /// One rendition and its lossless twin, as files.
    struct Made: Sendable, Decodable {
        var lossy: String
        var lossless: String
        var bytes: Int
    }

    /// One tool's renditions, per picture (nil where it failed) and per variant.
    struct ToolRenditions: Sendable {
        var tool: String
        var made: [[String: Made]?]
        var failures: [Failure]
    }

    /// The default bucket with the lossless twin of every variant, checked by the product's parser; with
    /// `quality`, every lossy variant asks for it instead of its own.
    static func twinnedDeclaration(quality: String? = nil) throws -> Data {
        guard
            var root = try JSONSerialization.jsonObject(with: Data(bucket.declarationJSON.utf8))
                as? [String: Any],
            var variants = root["variants"] as? [String: Any]
        else { throw VariantsError(.internalError, "the default bucket's declaration has no variants") }
        for (name, settings) in variants {
            guard var twin = settings as? [String: Any] else { continue }
            if let quality {
                var lossy = twin
                lossy["quality"] = quality
                variants[name] = lossy
            }
            twin["format"] = OutputFormat.png.rawValue
            twin["quality"] = nil
            variants[name + twinSuffix] = twin
        }
        root["variants"] = variants
        let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
        _ = try BucketDeclaration(parsing: data)
        return data
    }

    /// Renders the sources through a variantd binary's `batch` and reads its manifest.
    private static func batch(
        _ binary: String, tool: String, declaration: String, sources: String, out: String, count: Int
    ) throws -> ToolRenditions {
        _ = try MeasuringProcess.run(
            binary, ["batch", "--bucket", declaration, "--out", out, "--quiet", "--json", sources],
            pinned: false)
        var made = [[String: Made]?](repeating: nil, count: count)
        var failures: [Failure] = []
        let manifest = try String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)
        for line in manifest.split(separator: "\n") {
            let entry = try WireJSON.decode(ManifestLine.self, from: Data(line.utf8))
            guard let dash = entry.path.firstIndex(of: "-"), let index = Int(entry.path[..<dash]),
                made.indices.contains(index)
            else { continue }
            let file = String(entry.path[entry.path.index(after: dash)...])
            var variants: [String: Made] = [:]
            for variant in bucket.variants {
                guard let lossy = entry.renditions?[variant.name],
                    let lossless = entry.renditions?[variant.name + twinSuffix]
                else { break }
                variants[variant.name] = Made(
                    lossy: out + "/renditions/" + lossy.key, lossless: out + "/renditions/" + lossless.key,
                    bytes: lossy.size)
            }
            if variants.count == bucket.variants.count {
                made[index] = variants
            } else {
                failures.append(
                    Failure(file: file, tool: tool, error: entry.message ?? entry.error ?? "no renditions"))
            }
        }
        return ToolRenditions(tool: tool, made: made, failures: failures)
    }

    /// What `variantd batch` writes per file, as far as the comparison reads it.
    private struct ManifestLine: Decodable {
        struct Entry: Decodable {
            var key: String
            var size: Int
        }
        var path: String
        var renditions: [String: Entry]?
        var error: String?
        var message: String?
    }

    /// pyvips' renditions of every variant, by `anchors/quality.py` in the pyvips-binary venv.
    private static func anchor(_ files: [String], out: String) throws -> ToolRenditions {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let variants = bucket.variants.map { variant in
            AnchorVariant(
                name: variant.name, width: variant.width, height: variant.height, fit: variant.fit.rawValue,
                format: variant.format.rawValue, quality: variant.quality ?? variant.format.defaultQuality,
                withoutEnlargement: variant.withoutEnlargement)
        }
        let printed = try WireJSON.decode(
            AnchorOutput.self,
            from: MeasuringProcess.run(
                BenchPaths.binaryPython,
                [BenchPaths.script("quality.py"), out, try WireJSON.line(variants)]
                    + files, pinned: false))
        return ToolRenditions(
            tool: printed.tool, made: printed.files.map(\.renditions),
            failures: printed.files.compactMap { file in
                file.error.map {
                    Failure(file: (file.file as NSString).lastPathComponent, tool: printed.tool, error: $0)
                }
            })
    }

    /// A variant as `quality.py` reads it.
    private struct AnchorVariant: Encodable {
        var name: String
        var width: Int?
        var height: Int?
        var fit: String
        var format: String
        var quality: Int?
        var withoutEnlargement: Bool
    }

    /// What `quality.py` prints.
    private struct AnchorOutput: Decodable {
        struct File: Decodable {
            var file: String
            var renditions: [String: Made]?
            var error: String?
        }
        var tool: String
        var files: [File]
    }

    /// The SSIMULACRA2 of every rendition against its lossless twin, in order, by `anchors/score.py`.
    private static func score(_ pairs: [Made]) throws -> (scorer: String, scores: [Double]) {
        let printed = try WireJSON.decode(
            Scores.self,
            from: MeasuringProcess.run(
                BenchPaths.scorePython,
                [BenchPaths.script("score.py")] + pairs.flatMap { [$0.lossless, $0.lossy] }, pinned: false))
        guard printed.scores.count == pairs.count else {
            throw VariantsError(
                .internalError, "score.py gave \(printed.scores.count) scores for \(pairs.count) renditions")
        }
        return (printed.scorer, printed.scores)
    }

    private struct Scores: Decodable {
        var scorer: String
        var scores: [Double]
    }
}
