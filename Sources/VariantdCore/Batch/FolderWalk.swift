import Foundation

/// The regular files under a folder, found one at a time: only the directory being read and the names of
/// the directories still to visit are held, never the whole tree, so a folder of millions of files costs
/// the memory of its largest directory.
///
/// Entries come in byte order of their names, directory by directory, so two walks of the same tree agree.
/// Symbolic links are not followed (a batch reads exactly the tree under its folder), and `excluded` entries —
/// the batch's own output folder and quarantine files when they lie inside the folder — are left out, a
/// directory with all it holds.
struct FolderWalk: Sequence {
    /// A file found by the walk.
    struct File: Sendable, Equatable {
        /// Relative to the walked folder, with `/` separators: the object path in the bucket.
        var relativePath: String
        var absolutePath: String
        var size: Int
    }

    let root: String
    let excluded: Set<String>
    /// Called with a directory that cannot be listed, or an entry whose name is not UTF-8; the walk goes on
    /// without it.
    let unreadable: @Sendable (WalkProblem) -> Void

    func makeIterator() -> Iterator {
        Iterator(walk: self)
    }

    struct Iterator: IteratorProtocol {
        private let walk: FolderWalk
        /// The directories being read, outermost first, with their relative paths and the names left.
        private var stack: [(relativePath: String, names: ArraySlice<String>)] = []

        init(walk: FolderWalk) {
            self.walk = walk
            if let names = list(walk.root) { stack = [("", names)] }
        }

        mutating func next() -> File? {
            while let top = stack.indices.last {
                guard let name = stack[top].names.popFirst() else {
                    stack.removeLast()
                    continue
                }
                let relative = stack[top].relativePath.isEmpty ? name : stack[top].relativePath + "/" + name
                let absolute = walk.root + "/" + relative
                if walk.excluded.contains(absolute) { continue }
                let attributes: [FileAttributeKey: Any]
                do {
                    attributes = try FileManager.default.attributesOfItem(atPath: absolute)
                } catch {
                    // An entry that cannot be looked at — a name that is not UTF-8 (it comes with U+FFFD for its
                    // bad bytes, which opens nothing), a path longer than the system takes — is said, so that
                    // it (a folder with all it holds) is not silently missing; an entry gone since the listing
                    // is not.
                    let gone = (error as? CocoaError)?.code == .fileReadNoSuchFile
                    if !gone || name.contains("\u{FFFD}") {
                        walk.unreadable(WalkProblem(folderEntry: absolute, error: error))
                    }
                    continue
                }
                switch attributes[.type] as? FileAttributeType {
                case .typeRegular:
                    return File(
                        relativePath: relative, absolutePath: absolute,
                        size: (attributes[.size] as? NSNumber)?.intValue ?? 0)
                case .typeDirectory:
                    if let names = list(absolute) { stack.append((relative, names)) }
                default:
                    continue
                }
            }
            return nil
        }

        private func list(_ directory: String) -> ArraySlice<String>? {
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: directory)
                return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }[...]
            } catch {
                walk.unreadable(WalkProblem(folderEntry: directory, error: error))
                return nil
            }
        }
    }
}
