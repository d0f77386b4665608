import Foundation
import Synchronization
import Testing
import VariantdTestSupport

@testable import VariantdCore

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

    @Test func aMissingFolderIsReportedAndYieldsNothing() {
        let reported = ReportedPaths()
        let walk = FolderWalk(root: "/nonexistent/folder", excluded: []) { reported.add($0) }
        #expect(Array(walk).isEmpty)
        #expect(reported.paths.withLock { $0 } == ["/nonexistent/folder"])
    }
}

/// Collects what a walk reports, from its `@Sendable` callback.
private final class ReportedPaths: Sendable {
    let paths = Mutex<[String]>([])
    func add(_ path: String) { paths.withLock { $0.append(path) } }
}
