import Foundation

/// Files with an error line grouped by status, error code and reason, each group's list spooled to a file of
/// its own so that only the groups' counts are held, whatever the number of files. Codes and reasons are a
/// closed set; past `limit` groups (a manifest from elsewhere), the rest share one last group.
///
/// The sheet keeps two: the failures, and the files of a type the bucket does not take, which are not.
struct ErrorGroups {
    struct Key: Hashable {
        var statusCode: Int
        var code: String
        var reason: String?
    }

    private let directory: String
    /// Names the groups' part files and is their class on the page.
    private let name: String
    private let limit: Int
    private var groups: [Key: (count: Int, file: BufferedFileWriter)] = [:]
    private static let overflow = Key(statusCode: 0, code: "other", reason: nil)

    init(directory: String, name: String, limit: Int = 64) {
        self.directory = directory
        self.name = name
        self.limit = limit
    }

    var total: Int { groups.values.reduce(0) { $0 + $1.count } }

    mutating func add(_ entry: ContactSheetEntry) throws {
        var key = Key(statusCode: entry.statusCode ?? 0, code: entry.error ?? "error", reason: entry.reason)
        if groups[key] == nil, groups.count >= limit - 1 { key = Self.overflow }
        if groups[key] == nil {
            let file = try BufferedFileWriter(creating: directory + "/\(name)-\(groups.count).part")
            groups[key] = (0, file)
        }
        groups[key]?.count += 1
        let message = entry.message.map { " " + HTMLText.escaped($0) } ?? ""
        try groups[key]?.file.write("<li><code>\(HTMLText.escaped(entry.path))</code>\(message)</li>\n")
    }

    /// Writes every group, the largest first, as a `<details>` list (open unless it is long), and closes
    /// the group files.
    func write(into sheet: BufferedFileWriter) throws {
        let ordered = groups.sorted {
            ($1.value.count, $0.key.statusCode, $0.key.code, $0.key.reason ?? "")
                < ($0.value.count, $1.key.statusCode, $1.key.code, $1.key.reason ?? "")
        }
        for (key, group) in ordered {
            try group.file.close()
            let status = key.statusCode > 0 ? "\(key.statusCode) " : ""
            let reason = key.reason.map { " · " + HTMLText.escaped($0) } ?? ""
            let files = group.count == 1 ? "1 file" : "\(HTMLText.count(group.count)) files"
            try sheet.write(
                "<details class=\"group \(name)\"\(group.count <= 100 ? " open" : "")><summary><code>\(status)"
                    + "\(HTMLText.escaped(key.code))</code>\(reason) — \(files)</summary><ul>\n")
            try sheet.append(contentsOf: group.file.path)
            try sheet.write("</ul></details>\n")
        }
    }
}
