import Variants

/// `variantd bench --quality`: the default bucket's renditions by us and by pyvips on the pyvips-binary
/// libvips, their bytes, and the SSIMULACRA2 of each tool's lossy rendition against the same tool's lossless
/// rendition of the same geometry; with `--previous`, another variantd binary's renditions beside ours.
struct QualityComparison: Sendable, Codable, Equatable {
    /// One tool's renditions of one variant, in the order of `pictures`.
    struct Renditions: Sendable, Codable, Equatable {
        var bytes: [Int]
        /// SSIMULACRA2 (100 is identical, 90 visually lossless, 70 high quality).
        var scores: [Double]

        var totalBytes: Int { bytes.reduce(0, +) }
        var meanScore: Double { scores.isEmpty ? 0 : scores.reduce(0, +) / Double(scores.count) }

        /// Several variants' renditions as one, for a format's figures.
        static func pooled(_ all: [Renditions]) -> Renditions {
            Renditions(bytes: all.flatMap(\.bytes), scores: all.flatMap(\.scores))
        }
    }

    struct Variant: Sendable, Codable, Equatable {
        var name: String
        var format: String
        var ours: Renditions
        var pyvips: Renditions
        var previous: Renditions?
        /// With `--auto`: ours with the variant's quality searched for the format's default score target.
        var auto: Renditions? = nil
    }

    /// With `--auto`: the CPU seconds of our batch with the qualities as declared and with `"auto"`, decoder
    /// children included, for the same pictures.
    struct AutoCost: Sendable, Codable, Equatable {
        var declaredSeconds: Double
        var autoSeconds: Double

        enum CodingKeys: String, CodingKey {
            case declaredSeconds = "declared_seconds"
            case autoSeconds = "auto_seconds"
        }
    }

    /// A picture left out: one of the tools could not make all its renditions of it.
    struct Failure: Sendable, Codable, Equatable {
        var file: String
        var tool: String
        var error: String
    }

    var pictures: [String]
    var variants: [Variant]
    var skipped: [Failure]
    /// The pyvips row's name, with the libvips version it ran on (`pyvips-8.18`).
    var pyvipsTool: String
    /// The referee and its version (`ssimulacra2 0.3.0 with the reference's blur and scales`).
    var scorer: String
    /// The `--previous` binary.
    var previousBinary: String?
    var autoCost: AutoCost? = nil

    enum CodingKeys: String, CodingKey {
        case pictures, variants, skipped, scorer
        case pyvipsTool = "pyvips_tool"
        case previousBinary = "previous_binary"
        case autoCost = "auto_cost"
    }

    /// What is measured: the bucket a declaration-less upload gets.
    static let bucket = BucketDeclaration.default

    /// The goals, per output format: our bytes at most this share of pyvips'…
    static let byteGoals: [OutputFormat: Double] = [.jpeg: 0.80, .webp: 0.92]
    /// …with a mean score at most this far below pyvips'.
    static let scoreMargin = 1.0

    /// One format's variants together (WebP: thumb and medium).
    struct FormatFigures: Sendable, Equatable {
        var format: OutputFormat
        var variants: [String]
        var ours: Renditions
        var pyvips: Renditions
        var previous: Renditions?

        var byteRatio: Double { QualityComparison.ratio(ours.totalBytes, pyvips.totalBytes) }
        var scoreFloor: Double { pyvips.meanScore - QualityComparison.scoreMargin }
        var byteGoal: Double? { QualityComparison.byteGoals[format] }
        var meetsByteGoal: Bool? { byteGoal.map { byteRatio <= $0 } }
        var meetsScoreGoal: Bool { ours.meanScore >= scoreFloor }
    }

    /// Per format, JPEG first, in the order of `OutputFormat`'s cases.
    var formats: [FormatFigures] {
        OutputFormat.allCases.compactMap { format in
            let chosen = variants.filter { $0.format == format.rawValue }
            guard !chosen.isEmpty else { return nil }
            let previous = chosen.compactMap(\.previous)
            return FormatFigures(
                format: format, variants: chosen.map(\.name), ours: .pooled(chosen.map(\.ours)),
                pyvips: .pooled(chosen.map(\.pyvips)),
                previous: previous.count == chosen.count ? .pooled(previous) : nil)
        }
    }

    /// Bytes over bytes, 0 when there are none to divide by.
    static func ratio(_ bytes: Int, _ other: Int) -> Double { other == 0 ? 0 : Double(bytes) / Double(other) }
}
