import Testing

@testable import Variants

@Suite struct ExecutableNameTests {
    @Test(arguments: [
        "setup.exe", "photo.EXE", "a/b/Tool.Dll", "win\\setup.msi", "run.bat", "x.CMD", "p.ps1", "v.vbs",
        "s.sh",
        "My.app", "game.apk", "lib.jar", "pkg.deb", "pkg.rpm", "disk.dmg", "c.com", "saver.scr", "evil.exe.",
        "evil.exe  ", "libz.so", "Main.class", "classes.dex", "module.wasm", "x.pif", "y.hta",
    ])
    func refusesTheExtension(path: String) {
        #expect(ExecutableName.executableExtension(of: path) != nil, "\(path)")
    }

    @Test(arguments: [
        "photo.png", "photo.exe.png", "exe", ".exe", "a.exe/photo.jpg", "notes.txt", "archive.zip", "shell",
        "",
        "comic.jpeg", "app.json",
    ])
    func takesOtherNames(path: String) {
        #expect(ExecutableName.executableExtension(of: path) == nil, "\(path)")
    }

    @Test func namesTheExtensionInLowerCase() {
        #expect(ExecutableName.executableExtension(of: "uploads/photo.EXE") == "exe")
    }

    /// The executable types' own extensions are refused by name as well, so the table and the list agree.
    @Test func everyExecutableTypesExtensionIsRefused() {
        for type in MediaType.allCases {
            let refused = Set(type.facts.extensions).isSubset(of: ExecutableName.extensions)
            #expect(refused || !type.isExecutable, "\(type)")
            #expect(
                type.isExecutable || Set(type.facts.extensions).isDisjoint(with: ExecutableName.extensions))
        }
    }
}
