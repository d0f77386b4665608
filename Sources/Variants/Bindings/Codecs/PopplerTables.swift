/// poppler reads its global tables (character maps, the fonts it substitutes, from /usr/share/poppler and
/// fontconfig) when a first document opens, and frees them when the last one closes: the next document reads
/// them from disk again. A sealed decoder child cannot, so it keeps one small document open for its whole
/// life, and every PDF it decodes finds the tables in memory.
public enum PopplerTables {
    /// An empty one-page PDF, 8 × 8 points.
    private static let page = Array(
        """
        %PDF-1.1
        1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
        2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
        3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 8 8]>>endobj
        trailer<</Root 1 0 R>>
        %%EOF
        """.utf8)

    /// Set once, before the seal, and never read: it only keeps its document open.
    nonisolated(unsafe) private static var held: VipsImage?

    /// Opens the document kept open (libvips must have started); a second call does nothing.
    public static func hold() {
        guard held == nil else { return }
        held = try? VipsImage.load(.pdf, bytes: page)
    }
}
