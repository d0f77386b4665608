import Glibc

/// `rmdir`: a folder removed only while it holds nothing, in one step, so a file linked into it meanwhile
/// keeps it (Foundation's removal is recursive and would take the file too).
enum EmptyFolder {
    /// Whether the folder went; false when it holds something, or is not there (any more).
    static func remove(_ path: String) -> Bool {
        rmdir(path) == 0
    }
}
