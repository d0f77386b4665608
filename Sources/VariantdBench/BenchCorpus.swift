import Foundation
import Variants

/// A named group of source files measured together: one row per tool in the report.
struct BenchCorpus: Sendable, Equatable {
    var name: String
    var files: [String]

    /// The order corpora are measured and listed in.
    static let order = ["jpeg", "heic", "200mp", "png", "webp", "avif", "gif", "animated"]

    /// The corpus a file belongs to, from its sniffed type; nil for files that are not pictures we decode.
    ///
    /// A HEIC whose name says `200MP` is measured on its own: it is the memory case, and it would dominate
    /// the phone-photo figures. Animated GIF and WebP files are measured together, apart from the still ones:
    /// their WebP renditions keep every frame, a cost of another order.
    static func name(for type: MediaType, fileName: String, animated: Bool = false) -> String? {
        if animated, [.gif, .webp].contains(type) { return "animated" }
        switch type {
        case .jpeg: return "jpeg"
        case .png: return "png"
        case .webp: return "webp"
        case .gif: return "gif"
        case .avif, .avifSequence: return "avif"
        case .heic, .heif, .heifSequence:
            return fileName.lowercased().contains("200mp") ? "200mp" : "heic"
        default: return nil
        }
    }

    /// Groups typed files into corpora, in `order`, files sorted by path; `keep` filters the corpus names.
    static func group(
        _ files: [(path: String, type: MediaType, animated: Bool)], keep: (String) -> Bool = { _ in true }
    ) -> [BenchCorpus] {
        var byName: [String: [String]] = [:]
        for file in files {
            let fileName = (file.path as NSString).lastPathComponent
            guard let name = name(for: file.type, fileName: fileName, animated: file.animated), keep(name)
            else { continue }
            byName[name, default: []].append(file.path)
        }
        let known = order.filter { byName[$0] != nil }
        let others = byName.keys.filter { !order.contains($0) }.sorted()
        return (known + others).map { BenchCorpus(name: $0, files: byName[$0]!.sorted()) }
    }
}
