import Foundation
import Variants

/// An object store in a folder of the local file system, resolved once; an object's key is its path
/// relative to the folder, and never leads out of it.
struct ObjectFolder: ObjectStore {
    /// The root with every symbolic link resolved, without a trailing slash.
    let path: String

    init(_ path: String) throws(UsageError) {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw UsageError("The object store '\(path)' is not a directory") }
        self.path = resolved
    }

    /// The real path of a stored object named relative to the root.
    ///
    /// - Throws: `400 invalid_request` for a path `checkRelative` refuses or whose symbolic links lead out
    ///   of the root; `404 not_found` when nothing is there.
    func resolve(_ source: String) throws(VariantsError) -> String {
        try Self.checkRelative(source)
        let joined = path + "/" + source
        guard FileManager.default.fileExists(atPath: joined) else {
            throw VariantsError(.notFound, "no stored object at '\(source)'")
        }
        let resolved = URL(fileURLWithPath: joined).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(path == "/" ? "/" : path + "/") else {
            throw VariantsError(.invalidRequest, "source: '\(source)' leads out of the object store")
        }
        return resolved
    }

    func check(_ key: String) throws(VariantsError) {
        _ = try resolve(key)
    }

    func read(_ key: String, maxBytes: Int) throws(VariantsError) -> [UInt8] {
        try SourceFile.read(try resolve(key), maxBytes: maxBytes)
    }

    /// The rules a source path must meet before the disk is consulted: relative, no `..` part, no NUL. The
    /// queue applies them when a job is enqueued, since its rows may be written by other programs.
    static func checkRelative(_ source: String) throws(VariantsError) {
        guard !source.isEmpty, source.utf8.count <= 4096 else {
            throw VariantsError(
                .invalidRequest, "source: expected a path of 1…4096 bytes relative to the root")
        }
        guard !source.hasPrefix("/") else {
            throw VariantsError(
                .invalidRequest, "source: expected a path relative to the root, got an absolute one")
        }
        guard !source.utf8.contains(0) else {
            throw VariantsError(.invalidRequest, "source: a path cannot contain NUL")
        }
        guard !hasParentPart(source) else {
            throw VariantsError(.invalidRequest, "source: '..' is not allowed")
        }
    }

    /// Whether a `/`-separated part is `..`; read byte by byte, since every render request asks.
    private static func hasParentPart(_ path: String) -> Bool {
        var part = 0
        var dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if part == 2 && dots == 2 { return true }
                (part, dots) = (0, 0)
            } else {
                part += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return part == 2 && dots == 2
    }
}
