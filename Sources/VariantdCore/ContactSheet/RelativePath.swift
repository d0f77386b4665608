import Foundation

/// The path from one folder to a file, for links that keep working when the report and the rendition
/// store are moved together.
enum RelativePath {
    /// Both absolute; symbolic links and `.`/`..` are resolved first so that the common prefix is real. The
    /// folder itself is `.`, so that a file name joined to it with `/` stays relative.
    static func from(_ directory: String, to target: String) -> String {
        func components(_ path: String) -> [String] {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().pathComponents
                .filter { $0 != "/" }
        }
        let base = components(directory)
        let destination = components(target)
        var shared = 0
        while shared < base.count, shared < destination.count, base[shared] == destination[shared] {
            shared += 1
        }
        let path = Array(repeating: "..", count: base.count - shared) + destination[shared...]
        return path.isEmpty ? "." : path.joined(separator: "/")
    }
}
