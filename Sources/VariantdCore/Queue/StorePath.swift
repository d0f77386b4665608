import Foundation
public import Variants

/// A job's source path resolved inside the store root: relative paths only, no `..`, and after symbolic
/// links are followed the file must still be inside the root. The queue is written by other programs, so
/// a row is never trusted to name any file on the machine.
public enum StorePath {
    /// Whether a relative path could name a file inside a root, before looking at the disk.
    public static func isConfinable(_ relative: String) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.utf8.contains(0) else {
            return false
        }
        return !relative.split(separator: "/").contains("..")
    }

    /// The absolute path of `relative` inside `root`, or why it is refused.
    public static func resolve(_ relative: String, in root: String) throws(VariantsError) -> String {
        guard isConfinable(relative) else {
            throw VariantsError(
                .invalidRequest, "the source '\(relative)' is not a relative path inside the store")
        }
        let base = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: base + "/" + relative).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
            throw VariantsError(.invalidRequest, "the source '\(relative)' leads outside the store")
        }
        return resolved
    }
}
