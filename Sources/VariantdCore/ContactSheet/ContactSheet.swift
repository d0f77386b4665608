import Foundation
import ThumbHash
import Variants

/// A batch output folder as one self-contained HTML page to look at: a summary, the failed files grouped
/// by error, the files of a type the bucket does not take (not failures, as in the batch's own summary), and
/// every object with its ThumbHash placeholder beside its renditions.
///
/// It is written in two streaming passes over the manifest, holding neither the lines nor the page. The
/// first keeps, per path, a 64-bit hash and the number of its last line (the current one, as for a
/// resume): about 20–40 bytes a path, well under 1 MB for 10,000 objects. The second writes each current
/// object straight to a part file and each failure to its error group's part file, keeping only counters;
/// the page is then put together from the parts, summary and errors first, and renamed into place.
struct ContactSheet {
    /// What the batch that just ended says about itself (`batch --report`); a sheet made later from the
    /// folder alone (`variantd report`) does not know how long the run took.
    struct Run {
        var seconds: Double
        var processed: Int
        var skipped: Int
        var interrupted: Bool
    }

    /// The figures of the summary.
    struct Totals: Equatable {
        var objects = 0
        var ok = 0
        var unreadable = 0
        var unsupported = 0
        var errors = 0
        var renditions = 0
        /// Source bytes of the objects with metadata (an error line does not record a size).
        var bytesIn = 0
        var bytesOut = 0
        /// Earlier lines for a path that a later line replaced.
        var superseded = 0
        /// Lines that are not records (a torn write, another format).
        var unreadableLines = 0
    }

    /// The batch output folder: `manifest.jsonl` and `renditions/`.
    var output: String
    /// Where the page goes.
    var html: String
    var run: Run?
    /// The rendition folder the page links to, when a batch was given one other than `<out>/renditions`.
    var renditions: String? = nil

    /// Renditions are shown at their real size up to this many pixels a side, and scaled down past it.
    static let displayBound = 256
    /// The placeholder is shown at the object's aspect ratio, this many pixels on its longer side.
    static let placeholderSide = 128

    var manifestPath: String { output + "/manifest.jsonl" }

    /// Writes the page and returns its figures.
    func write() throws -> Totals {
        let (last, seen) = try lastLines()
        let directory = (html as NSString).deletingLastPathComponent
        let parts = directory + "/.\((html as NSString).lastPathComponent).parts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parts) }

        let store = RelativePath.from(directory, to: renditions ?? output + "/renditions")
        let objects = try BufferedFileWriter(creating: parts + "/objects.part")
        var errors = ErrorGroups(directory: parts, name: "errors")
        var unsupported = ErrorGroups(directory: parts, name: "unsupported")
        var totals = Totals()
        var number = 0
        try ManifestLines.forEach(in: manifestPath) { line in
            defer { number += 1 }
            // Lines a running batch appended after the first pass are left for the next report.
            guard !line.isEmpty, number < seen else { return }
            guard let entry = try? WireJSON.decode(ContactSheetEntry.self, from: line) else {
                if !WalkProblemLine.describes(line) { totals.unreadableLines += 1 }
                return
            }
            guard last[Self.key(entry.path)] == number else {
                totals.superseded += 1
                return
            }
            totals.objects += 1
            switch entry.category {
            case .ok: totals.ok += 1
            case .unreadable: totals.unreadable += 1
            case .unsupported: totals.unsupported += 1
            case .error: totals.errors += 1
            }
            if entry.error != nil {
                if entry.category == .unsupported {
                    try unsupported.add(entry)
                } else {
                    try errors.add(entry)
                }
                return
            }
            totals.bytesIn += entry.size ?? 0
            for rendition in (entry.renditions ?? [:]).values {
                totals.renditions += 1
                totals.bytesOut += rendition.size
            }
            try objects.write(Self.article(entry, store: store))
        }
        try objects.close()

        let temporary = parts + "/sheet.html"
        let sheet = try BufferedFileWriter(creating: temporary)
        try sheet.write(ContactSheetPage.head(title: "variantd batch report: \(output)"))
        try sheet.write(
            "<h1>Batch report</h1>\n<p class=\"where\"><code>\(HTMLText.escaped(output))</code></p>\n")
        try sheet.write(summary(totals))
        try sheet.write("<h2 id=\"errors\">Errors (\(HTMLText.count(errors.total)))</h2>\n")
        if errors.total == 0 { try sheet.write("<p class=\"none\">No file failed.</p>\n") }
        try errors.write(into: sheet)
        if unsupported.total > 0 {
            try sheet.write(
                "<h2 id=\"unsupported\">Unsupported (\(HTMLText.count(unsupported.total)))</h2>\n")
            try sheet.write("<p class=\"where\">Types the bucket does not take: results, not failures.</p>\n")
            try unsupported.write(into: sheet)
        }
        try sheet.write("<h2 id=\"objects\">Objects (\(HTMLText.count(totals.ok)))</h2>\n")
        try sheet.append(contentsOf: objects.path)
        try sheet.write(ContactSheetPage.foot)
        try sheet.close()
        if FileManager.default.fileExists(atPath: html) { try FileManager.default.removeItem(atPath: html) }
        try FileManager.default.moveItem(atPath: temporary, toPath: html)
        return totals
    }

    /// First pass: for each path, the number of its last line, and how many lines there were. Paths are
    /// kept as 64-bit hashes (seeded per process); two paths sharing one would show only the later, with
    /// odds near 10⁻¹² at 10,000.
    private func lastLines() throws -> (last: [Int: Int], lines: Int) {
        var last: [Int: Int] = [:]
        var number = 0
        try ManifestLines.forEach(in: manifestPath) { line in
            if let entry = try? WireJSON.decode(ContactSheetEntry.Path.self, from: line) {
                last[Self.key(entry.path)] = number
            }
            number += 1
        }
        return (last, number)
    }

    /// Hashes the path's UTF-8 bytes, not the `String`: Swift hashes strings up to Unicode equivalence, which
    /// would take `café.jpg` in NFC and in NFD, two files and two manifest lines, for one path.
    private static func key(_ path: String) -> Int {
        var hasher = Hasher()
        for byte in path.utf8 { hasher.combine(byte) }
        return hasher.finalize()
    }

    private func summary(_ totals: Totals) throws -> String {
        var rows: [(String, String)] = [
            ("objects", HTMLText.count(totals.objects)),
            ("ok", HTMLText.count(totals.ok)),
            ("unreadable", HTMLText.count(totals.unreadable)),
            ("unsupported", HTMLText.count(totals.unsupported)),
            ("errors", HTMLText.count(totals.errors)),
        ]
        var out = "\(HTMLText.bytes(totals.bytesOut)) in \(HTMLText.count(totals.renditions)) renditions"
        if totals.bytesIn > 0 {
            out += " (\(Int((Double(totals.bytesOut) / Double(totals.bytesIn) * 100).rounded())) % of in)"
        }
        rows += [
            ("bytes in", HTMLText.bytes(totals.bytesIn) + " of sources with metadata"), ("bytes out", out),
        ]
        if let run {
            let seconds = ProgressLine.oneDecimal(run.seconds)
            rows.append(
                (
                    "this run",
                    (run.interrupted ? "interrupted after " : "") + "\(seconds) s: "
                        + "\(HTMLText.count(run.processed)) files processed, "
                        + "\(HTMLText.count(run.skipped)) skipped"
                ))
        }
        let modified =
            try FileManager.default.attributesOfItem(atPath: manifestPath)[.modificationDate] as? Date
        rows.append(
            ("manifest", "written until " + (modified.map { Timestamp($0).description } ?? "?"))
        )
        if totals.superseded > 0 {
            rows.append(("earlier lines", "\(HTMLText.count(totals.superseded)) replaced by a later line"))
        }
        if totals.unreadableLines > 0 {
            rows.append(("not records", "\(HTMLText.count(totals.unreadableLines)) lines ignored"))
        }
        let body = rows.map { "<tr><th>\($0.0)</th><td>\(HTMLText.escaped($0.1))</td></tr>" }
        return "<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\">\n"
            + body.joined(separator: "\n") + "\n</table>\n"
    }

    /// One object: its path, type, size and dimensions, its placeholder, then its renditions from the
    /// smallest, each linked to its file and shown at its real size up to `displayBound`.
    private static func article(_ entry: ContactSheetEntry, store: String) -> String {
        var meta = [entry.contentType ?? "?", "\(HTMLText.count(entry.size ?? 0)) bytes"]
        if let width = entry.width, let height = entry.height { meta.append("\(width) × \(height)") }
        var html =
            "<article><h3>\(HTMLText.escaped(entry.path))</h3>\n<p class=\"meta\">"
            + HTMLText.escaped(meta.joined(separator: " · ")) + "</p>\n<div class=\"row\">\n"
        if let text = entry.thumbhash {
            html += placeholder(text, width: entry.width, height: entry.height)
        }
        let renditions = (entry.renditions ?? [:]).sorted {
            ($0.value.width * $0.value.height, $0.key) < ($1.value.width * $1.value.height, $1.key)
        }
        for (name, rendition) in renditions {
            let (width, height) = fitted(rendition.width, rendition.height, within: displayBound)
            let source = HTMLText.escaped(HTMLText.urlPath(store + "/" + rendition.key))
            let format = rendition.contentType.split(separator: "/").last.map(String.init) ?? "?"
            html +=
                "<figure><a href=\"\(source)\"><img src=\"\(source)\" width=\"\(width)\" "
                + "height=\"\(height)\" loading=\"lazy\" decoding=\"async\" "
                + "alt=\"\(HTMLText.escaped(name))\">"
                + "</a><figcaption><b>\(HTMLText.escaped(name))</b> · \(HTMLText.escaped(format)) · "
                + "\(rendition.width) × \(rendition.height) · \(HTMLText.count(rendition.size)) bytes"
                + "</figcaption></figure>\n"
        }
        return html + "</div></article>\n"
    }

    /// The placeholder decoded by our ThumbHash module into an inline PNG.
    private static func placeholder(_ text: String, width: Int?, height: Int?) -> String {
        guard let hash = try? ThumbHash(base64: text) else {
            return "<figure><figcaption>ThumbHash: not a valid hash</figcaption></figure>\n"
        }
        let image = hash.decode()
        let png = PNGEncoder.rgba(width: image.width, height: image.height, pixels: image.rgba)
        let aspect = (width ?? image.width, height ?? image.height)
        let (shownWidth, shownHeight) = fitted(aspect.0, aspect.1, within: placeholderSide, enlarging: true)
        return "<figure><img src=\"data:image/png;base64,\(Data(png).base64EncodedString())\" "
            + "width=\"\(shownWidth)\" height=\"\(shownHeight)\" alt=\"ThumbHash placeholder\">"
            + "<figcaption>ThumbHash (\(image.width) × \(image.height))</figcaption></figure>\n"
    }

    /// A size scaled to fit `bound` on its longer side, kept as it is when it fits unless `enlarging`.
    static func fitted(_ width: Int, _ height: Int, within bound: Int, enlarging: Bool = false) -> (Int, Int)
    {
        let longer = max(width, height, 1)
        guard longer > bound || enlarging else { return (width, height) }
        let scale = Double(bound) / Double(longer)
        return (
            max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded()))
        )
    }
}
