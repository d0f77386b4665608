import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// A held rendition is sent without its path for a second, then only while one `stat` still finds the same
/// file there; a full set lets go of the idle ones first. Time is handed in, so nothing waits.
@Suite struct OpenRenditionsTests {
    private let start = ContinuousClock.now

    /// The file at `path`, opened as a hit opens it.
    private func opened(_ path: String, at now: ContinuousClock.Instant) throws -> OpenRenditions.Entry {
        let descriptor = try FileDescriptor.open(path, .reading)
        let identity = try #require(FileIdentity(descriptor: descriptor))
        let file = HeldFile(descriptor: descriptor, count: Int(identity.size))
        return OpenRenditions.Entry(file: file, identity: identity, checksum: "sum of \(path)", checked: now)
    }

    private func folder(writing names: [String]) throws -> URL {
        let folder = try TestPaths.temporaryDirectory()
        for name in names { try Data(name.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    @Test func aHeldRenditionIsTrustedForASecondThenCheckedByItsPath() throws {
        let folder = try folder(writing: ["a.webp"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.webp").path
        let open = OpenRenditions()
        open.keep(try opened(path, at: start), at: path)
        let later = start + .milliseconds(900)
        #expect(open.entry(at: path, now: later)?.checksum == "sum of \(path)")

        let checkedAgain = start + .seconds(3)
        #expect(
            open.entry(at: path, now: checkedAgain)?.checked == checkedAgain, "the same file is still there")
        try FileManager.default.removeItem(atPath: path)
        #expect(
            open.entry(at: path, now: checkedAgain + .milliseconds(500)) != nil, "trusted within the second")
        #expect(open.entry(at: path, now: checkedAgain + .seconds(2)) == nil)
        #expect(open.count == 0, "a removed rendition is let go")
    }

    @Test func aRenditionReplacedUnderItsPathIsLetGo() throws {
        let folder = try folder(writing: ["a.webp", "b.webp"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.webp").path
        let open = OpenRenditions()
        let held = try opened(path, at: start)
        open.keep(held, at: path)
        #expect(rename(folder.appendingPathComponent("b.webp").path, path) == 0)
        #expect(open.entry(at: path, now: start + .seconds(2)) == nil)
        #expect(try held.file.read() == Array("a.webp".utf8), "a descriptor in use still reads its own file")
    }

    @Test func aFullSetLetsGoOfIdleRenditionsFirst() throws {
        let names = ["a", "b", "c", "d"].map { "\($0).webp" }
        let folder = try folder(writing: names)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = names.map { folder.appendingPathComponent($0).path }
        let open = OpenRenditions(capacity: 3)
        open.keep(try opened(paths[0], at: start), at: paths[0])
        let recent = start + OpenRenditions.idle
        open.keep(try opened(paths[1], at: recent), at: paths[1])
        open.keep(try opened(paths[2], at: recent), at: paths[2])
        open.keep(try opened(paths[3], at: recent + .seconds(1)), at: paths[3])
        #expect(open.count == 3)
        #expect(open.entry(at: paths[0], now: recent + .seconds(1)) == nil, "idle for over a minute")
        #expect(open.entry(at: paths[1], now: recent + .seconds(1)) != nil)

        let everyOneInUse = recent + .seconds(1)
        open.keep(try opened(paths[0], at: everyOneInUse), at: paths[0])
        #expect(open.count == 1, "a set of renditions all in use starts over")
    }
}
