/// The names a bucket that blocks executables refuses, whatever the bytes are: an installer, a package or a
/// script is run by whatever opens it under its name, and many are archives or text to a sniffer.
public enum ExecutableName {
    /// Extensions (lower case) of programs whose bytes do not prove it: Windows programs, installers and scripts
    /// (`com`, `pif` and `msi` to `psm1`), packages and app bundles of each platform (`app` to `run`, `jar`).
    static let others: Set<String> = [
        "com", "pif", "msi", "msp", "msix", "appx", "bat", "cmd", "ps1", "psm1", "vbs", "vbe", "wsf", "hta",
        "app", "apk", "ipa", "jar", "deb", "rpm", "dmg", "appimage", "run",
    ]

    /// Every refused extension: the others, and those the format table gives the executable types (`exe`,
    /// `dll`, `so`, `class`, `sh`, …).
    public static let extensions: Set<String> = others.union(
        MediaType.allCases.filter(\.isExecutable).flatMap(\.facts.extensions))

    /// The executable extension `path` ends in, in lower case, or nil. The last component counts, after `/` or
    /// `\`, and trailing dots and spaces are dropped, as Windows drops them when it opens the file.
    public static func executableExtension(of path: String) -> String? {
        var name = path.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last ?? ""
        while let last = name.last, last == "." || last == " " { name = name.dropLast() }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let found = String(name[name.index(after: dot)...]).lowercased()
        return extensions.contains(found) ? found : nil
    }
}
