import Foundation
import Synchronization
import Testing
import VariantdTestSupport

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct FolderWalkTests {
    @Test func regularFilesInNameOrderNestedFoldersIncludedLinksAndExcludedFoldersLeftOut() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        for path in ["b.jpg", "a/z.png", "a/b/c.gif", "out/manifest.jsonl", "B.txt", "a/.hidden"] {
            let url = root.appendingPathComponent(path)
            try manager.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("12345".utf8).write(to: url)
        }
        try manager.createSymbolicLink(
            atPath: root.path + "/link.jpg", withDestinationPath: root.path + "/b.jpg")
        try manager.createSymbolicLink(atPath: root.path + "/a/loop", withDestinationPath: root.path)
        try manager.createDirectory(atPath: root.path + "/empty", withIntermediateDirectories: true)

        let walk = FolderWalk(root: root.path, excluded: [root.path + "/out"], unreadable: { _ in })
        let files = Array(walk)
        #expect(files.map(\.relativePath) == ["B.txt", "a/.hidden", "a/b/c.gif", "a/z.png", "b.jpg"])
        #expect(files.allSatisfy { $0.size == 5 && $0.absolutePath == root.path + "/" + $0.relativePath })
    }

    /// An excluded file (the batch's quarantine database and its companions) is left out as an excluded
    /// folder is, at any depth.
    @Test func excludedFilesAreLeftOutLikeExcludedFolders() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for path in ["a.jpg", "q.sqlite3", "q.sqlite3-wal", "nested/q.sqlite3", "q.sqlite3.jpg"] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("12345".utf8).write(to: url)
        }
        let excluded: Set = [
            root.path + "/q.sqlite3", root.path + "/q.sqlite3-wal", root.path + "/nested/q.sqlite3",
        ]
        let files = Array(FolderWalk(root: root.path, excluded: excluded, unreadable: { _ in }))
        #expect(files.map(\.relativePath) == ["a.jpg", "q.sqlite3.jpg"])
    }

    /// A name that is not UTF-8 cannot become an object path, nor be opened by the name Foundation gives
    /// it: the file, or the folder with everything in it, is reported rather than silently missing.
    @Test func namesThatAreNotUTF8AreReported() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("12345".utf8).write(to: root.appendingPathComponent("ok.jpg"))
        func path(_ bytes: [UInt8]) -> [CChar] {
            (Array(root.path.utf8) + bytes + [0]).map { CChar(bitPattern: $0) }
        }
        let folder = Array("/dir".utf8) + [0xFE]
        #expect(mkdir(path(folder), 0o755) == 0)
        for file in [Array("/bad".utf8) + [0xFF] + Array(".jpg".utf8), folder + Array("/inner.jpg".utf8)] {
            let descriptor = open(path(file), O_CREAT | O_WRONLY, 0o644)
            #expect(descriptor >= 0)
            close(descriptor)
        }

        let reported = ReportedPaths()
        let files = Array(FolderWalk(root: root.path, excluded: []) { reported.add($0) })
        #expect(files.map(\.relativePath) == ["ok.jpg"])
        #expect(reported.paths.withLock { $0.count } == 2, "\(reported.paths.withLock { $0 })")
    }

    /// A folder nested so deep that its path is longer than the system takes (PATH_MAX, 4096 bytes) cannot be
    /// looked at by that path: it is reported, so that the run's status tells of the files left out.
    @Test func aFolderWhosePathIsTooLongIsReported() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("12345".utf8).write(to: root.appendingPathComponent("ok.jpg"))
        // Made and removed level by level through descriptors, since no path reaches the bottom.
        let name = String(repeating: "d", count: 200)
        var levels = [open(root.path, O_RDONLY | O_DIRECTORY)]
        for _ in 0..<25 {
            #expect(mkdirat(levels[levels.count - 1], name, 0o755) == 0)
            levels.append(openat(levels[levels.count - 1], name, O_RDONLY | O_DIRECTORY))
        }
        let file = openat(levels[levels.count - 1], "deep.jpg", O_CREAT | O_WRONLY, 0o644)
        #expect(file >= 0)
        close(file)
        defer {
            unlinkat(levels[levels.count - 1], "deep.jpg", 0)
            for (parent, child) in zip(levels.dropLast(), levels.dropFirst()).reversed() {
                close(child)
                unlinkat(parent, name, AT_REMOVEDIR)
            }
            close(levels[0])
        }

        let reported = ReportedPaths()
        let files = Array(FolderWalk(root: root.path, excluded: []) { reported.add($0) })
        #expect(files.map(\.relativePath) == ["ok.jpg"])
        #expect(reported.paths.withLock { $0.count } == 1)
    }

    @Test func aMissingFolderIsReportedAndYieldsNothing() {
        let reported = ReportedPaths()
        let walk = FolderWalk(root: "/nonexistent/folder", excluded: []) { reported.add($0) }
        #expect(Array(walk).isEmpty)
        #expect(reported.paths.withLock { $0 } == ["/nonexistent/folder"])
    }
}

/// Collects the places a walk reports, from its `@Sendable` callback; none is a refusal (the tests run
/// without one).
private final class ReportedPaths: Sendable {
    let paths = Mutex<[String]>([])
    func add(_ problem: WalkProblem) {
        #expect(problem.cause == .unreadable && problem.reached == nil, "\(problem)")
        paths.withLock { $0.append(problem.location) }
    }
}
