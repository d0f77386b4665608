extension MediaType {
    /// The one table of formats: everything that differs between media types is read from here.
    var facts: FormatFacts {
        switch self {
        case .jpeg:
            FormatFacts(
                extensions: ["jpg", "jpeg", "jpe"], aliases: ["image/jpg", "image/pjpeg"],
                container: .jpegSegments, decoder: .vips(.jpeg),
                encoder: .init(
                    format: .jpeg, defaultQuality: 82, scoreSearch: .init(target: 83, pointsPerStep: 0.6),
                    progressive: true, keepsRights: true))
        case .png:
            FormatFacts(
                extensions: ["png"], aliases: ["image/x-png"], container: .pngChunks, decoder: .vips(.png),
                encoder: .init(format: .png, defaultQuality: nil),
                alpha: true)
        case .gif:
            FormatFacts(
                extensions: ["gif"], container: .gifBlocks, decoder: .vips(.gif), alpha: true, animates: true)
        case .webp:
            FormatFacts(
                extensions: ["webp"], container: .riffChunks, decoder: .vips(.webp),
                encoder: .init(
                    format: .webp, defaultQuality: 80, scoreSearch: .init(target: 75, pointsPerStep: 0.8),
                    effort: true, keepsRights: true),
                alpha: true, animates: true)
        case .heic:
            FormatFacts(extensions: ["heic", "hif"], container: .isoBoxes, decoder: .heif, alpha: true)
        case .heif:
            FormatFacts(extensions: ["heif"], container: .isoBoxes, decoder: .heif, alpha: true)
        case .avif:
            FormatFacts(
                extensions: ["avif"], container: .isoBoxes, decoder: .heif,
                encoder: .init(format: .avif, defaultQuality: 60, keepsRights: true),
                alpha: true)
        // A sequence's still primary image is decoded; its track is not.
        case .heifSequence, .avifSequence: FormatFacts(container: .isoBoxes, decoder: .heif, alpha: true)
        // Documents and drawings: the first page or directory, drawn or decoded once for every rendition.
        case .tiff: FormatFacts(extensions: ["tif", "tiff"], decoder: .vips(.tiff), alpha: true, pages: true)
        case .svg: FormatFacts(extensions: ["svg"], decoder: .vips(.svg), alpha: true)
        case .jpegXL: FormatFacts(extensions: ["jxl"], decoder: .vips(.jxl), alpha: true)
        case .pdf:
            FormatFacts(
                extensions: ["pdf"], container: .pdfObjects, decoder: .vips(.pdf), pages: true,
                measuredInPoints: true)
        case .bmp, .jpeg2000, .icon, .photoshop: FormatFacts()
        case .zip: FormatFacts(extensions: ["zip"])
        // Videos: a poster frame.
        case .mp4: FormatFacts(extensions: ["mp4", "m4v"], container: .isoBoxes, decoder: .video(.mov))
        case .quickTime: FormatFacts(extensions: ["mov", "qt"], container: .isoBoxes, decoder: .video(.mov))
        case .webm: FormatFacts(extensions: ["webm"], container: .ebmlElements, decoder: .video(.matroska))
        case .matroska:
            FormatFacts(extensions: ["mkv"], container: .ebmlElements, decoder: .video(.matroska))
        case .json: FormatFacts(extensions: ["json"])
        case .text: FormatFacts(extensions: ["txt"])
        case .csv: FormatFacts(extensions: ["csv"])
        case .elf:
            FormatFacts(
                extensions: ["elf", "so"],
                aliases: ["application/x-sharedlib", "application/x-pie-executable", "application/x-elf"],
                executable: true)
        case .portableExecutable:
            FormatFacts(
                extensions: ["exe", "dll", "scr", "sys", "cpl", "efi"],
                aliases: ["application/x-msdownload", "application/x-dosexec"], executable: true)
        case .machO: FormatFacts(extensions: ["dylib"], executable: true)
        case .wasm: FormatFacts(extensions: ["wasm"], executable: true)
        case .javaClass:
            FormatFacts(extensions: ["class"], aliases: ["application/x-java-applet"], executable: true)
        case .dex: FormatFacts(extensions: ["dex"], aliases: ["application/x-dex"], executable: true)
        case .script:
            FormatFacts(
                extensions: ["sh", "bash", "zsh", "ksh", "csh"],
                aliases: ["application/x-sh", "application/x-shellscript", "text/x-sh"], executable: true)
        case .isoMedia, .octetStream: FormatFacts()
        }
    }

    /// The type each extension of the table suggests.
    static let byExtension = lookup(\.extensions)

    /// The type each other spelling of the table declares.
    static let byAlias = lookup(\.aliases)

    private static func lookup(_ names: KeyPath<FormatFacts, [String]>) -> [String: MediaType] {
        Dictionary(
            allCases.flatMap { type in type.facts[keyPath: names].map { ($0, type) } },
            uniquingKeysWith: { first, _ in first })
    }
}
