import Testing

@testable import Variants

/// The process runs on the libvips that setup builds (Debian 13's 8.16 with only our formats), not on the
/// system's 8.14 by accident, and the loader allow-list holds on it.
@Suite struct CodecStackTests {
    init() throws {
        try Vips.start()
    }

    @Test func runsOnTheLibvipsItWasCompiledFor() throws {
        #expect(Vips.version == Vips.headerVersion)
        let parts = Vips.version.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count == 3 && (parts[0], parts[1]) >= (8, 16), "libvips \(Vips.version)")
        #expect(Vips.libraryPath.hasSuffix("/lib/libvips.so.42"))
        #expect(!Vips.libraryPath.hasPrefix("/usr/"), "runs on \(Vips.libraryPath)")
    }

    @Test func buildHasNoLoaderWeNeverUse() {
        let families = Set(Vips.loaders.map(\.family))
        let unwanted: Set = [
            "VipsForeignLoadMagick", "VipsForeignLoadHeif", "VipsForeignLoadJp2k", "VipsForeignLoadFits",
            "VipsForeignLoadOpenslide", "VipsForeignLoadPpm", "VipsForeignLoadRad",
        ]
        #expect(families.isDisjoint(with: unwanted), "built: \(families.sorted())")
    }

    @Test func everyLoaderOutsideOurFamiliesIsBlocked() throws {
        let loaders = Vips.loaders
        let ours = Set(VipsLoader.allCases.map(\.family))
        #expect(loaders.contains { !ours.contains($0.family) }, "the check needs a loader outside ours")
        for loader in loaders {
            #expect(loader.blocked == !ours.contains(loader.family), "\(loader.name)")
        }
        try LoaderSelfCheck.checkInventory(loaders)
    }

    @Test func inventoryCheckRefusesAnOpenForeignLoader() {
        let magick = VipsLoaderClass(
            name: "VipsForeignLoadMagickBuffer", family: "VipsForeignLoadMagick", blocked: false)
        #expect(throws: BackendError.self) { try LoaderSelfCheck.checkInventory(Vips.loaders + [magick]) }
    }

    @Test func inventoryCheckRefusesAMissingOrBlockedFamilyOfOurs() {
        let loaders = Vips.loaders
        #expect(throws: BackendError.self) {
            try LoaderSelfCheck.checkInventory(loaders.filter { $0.family != VipsLoader.webp.family })
        }
        let blockedGIF = loaders.map {
            $0.family == VipsLoader.gif.family
                ? VipsLoaderClass(name: $0.name, family: $0.family, blocked: true) : $0
        }
        #expect(throws: BackendError.self) { try LoaderSelfCheck.checkInventory(blockedGIF) }
    }
}
