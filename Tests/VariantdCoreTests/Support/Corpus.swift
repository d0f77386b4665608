import Foundation
import Testing
import VariantdTestSupport

/// The third-party corpus in `../shared/corpus` and its `MANIFEST.tsv`: expected type, outcome and size.
enum Corpus {
    struct Row: Sendable, CustomTestStringConvertible {
        var path: String
        var sniffedType: String
        var decodes: Bool
        var width: Int?
        var height: Int?

        var testDescription: String { path }
    }

    static let root = TestPaths.shared.appendingPathComponent("corpus")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("MANIFEST.tsv").path)
    }

    /// Types whose files are decoded by their bytes whatever their name says: the manifest expects a
    /// rejection of its disguised TIFF, SVG and PDF, which variantd draws.
    static let decodedByContent: Set = ["image/tiff", "image/svg+xml", "application/pdf"]

    /// Every manifest row; empty when the corpus is absent (the tests using it are then disabled).
    static let rows: [Row] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        let lines = text.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        guard let header = lines.first else { return [] }
        func column(_ name: String) -> Int { header.firstIndex { $0 == name }! }
        let (path, type, expected, width, height) = (
            column("path"), column("sniffed_type"), column("expected"), column("width"), column("height")
        )
        return lines.dropFirst().map { fields in
            Row(
                path: String(fields[path]), sniffedType: String(fields[type]),
                decodes: fields[expected] == "decode" || decodedByContent.contains(String(fields[type])),
                width: Int(fields[width]), height: Int(fields[height]))
        }
    }()

    static func url(_ row: Row) -> URL { root.appendingPathComponent(row.path) }
}
