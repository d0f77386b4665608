import Foundation

/// Reads an existing manifest once, at the start of a run, into the keys a resume needs — never the lines.
struct ManifestReader {
    /// What an existing manifest says.
    struct Contents: Sendable {
        /// Key → how the result counts, for every line that counts as done.
        var done: [ManifestKey: ResultCategory] = [:]
        /// How many keys of `done` each declaration fingerprint has: about the files a run under it skips.
        var doneByDeclaration: [String: Int] = [:]
        /// Bytes up to the end of the last complete line: anything after it is a write torn by a crash,
        /// which the writer cuts off before appending.
        var completeLength: UInt64 = 0
        /// Complete lines that could not be read as records (kept, but not taken as done).
        var unreadableLines = 0
    }

    /// The contents of the manifest at `path`; empty when there is none yet.
    static func read(_ path: String) throws -> Contents {
        var contents = Contents()
        guard FileManager.default.fileExists(atPath: path) else { return contents }
        let length = try ManifestLines.forEach(in: path) { add($0, to: &contents) }
        contents.completeLength = length
        return contents
    }

    static func add(_ line: ArraySlice<UInt8>, to contents: inout Contents) {
        guard !line.isEmpty else { return }
        guard let record = ManifestRecord(line: line) else {
            if !WalkProblemLine.describes(line) { contents.unreadableLines += 1 }
            return
        }
        guard let key = record.key else { return }
        if let category = record.doneCategory {
            if contents.done.updateValue(category, forKey: key) == nil {
                contents.doneByDeclaration[record.declarationSha256, default: 0] += 1
            }
        } else if contents.done.removeValue(forKey: key) != nil {
            contents.doneByDeclaration[record.declarationSha256, default: 0] -= 1
        }
    }
}
