import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The processes the kernel lists under `/proc`, as a test sees what a daemon leaves running: its children,
/// zombies it did not reap, and decoder children whose parent died before them.
struct ProcessCensus {
    struct Entry: Equatable {
        var id: Int32
        var parent: Int32
        /// `R`, `S`, `D`, `Z` (a zombie) … as in `/proc/<id>/stat`.
        var state: Character
        var arguments: [String]

        var isDecoderChild: Bool { arguments.dropFirst().first == "decoder-child" }
    }

    let entries: [Entry]

    /// Reads every process's `stat` and `cmdline`; one that ends while being read is left out.
    init() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        entries = names.compactMap { Int32($0) }.compactMap(Self.entry)
    }

    func children(of parent: Int32) -> [Entry] {
        entries.filter { $0.parent == parent }
    }

    /// Decoder children of a `variantd` binary whose parent is gone (adopted by init or a subreaper).
    func orphanedDecoderChildren(of binary: String, parents: Set<Int32>) -> [Entry] {
        entries.filter { $0.isDecoderChild && $0.arguments.first == binary && !parents.contains($0.parent) }
    }

    private static func entry(_ id: Int32) -> Entry? {
        // `pid (comm) state ppid …`: the command may hold spaces and parentheses, so read after the last ')'.
        guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        let commandLine = FileManager.default.contents(atPath: "/proc/\(id)/cmdline") ?? Data()
        let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return Entry(id: id, parent: parent, state: state, arguments: arguments)
    }
}
