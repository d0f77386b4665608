import Foundation

/// The files a sealed decoder child may still read: the system's fonts and fontconfig's configuration and
/// cache, where Debian's fontconfig keeps them (`/etc/fonts/fonts.conf`). Text in a font a document does not
/// carry — a PDF's unembedded Helvetica, an SVG's `<text>` — is drawn with a font file poppler or Pango opens
/// when the document needs it, after the seal; everything else on the filesystem stays out of reach.
enum SystemFonts {
    /// Font directories fontconfig scans, its configuration (whose `conf.d` links into
    /// `/usr/share/fontconfig`) and the system cache it reads instead of scanning them.
    static let candidates = [
        "/usr/share/fonts", "/usr/local/share/fonts", "/etc/fonts", "/usr/share/fontconfig",
        "/var/cache/fontconfig",
    ]

    /// The candidates that exist on this machine (Landlock can only grant what it can open).
    static var directories: [String] {
        candidates.filter { FileManager.default.fileExists(atPath: $0) }
    }
}
