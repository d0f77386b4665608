import Foundation
import Variants

/// What a decoder child does once before it seals itself: decode a tiny picture of each kind and render it
/// to every output format, so each library loads its plugins and codecs, starts its threads and builds its
/// lazy tables while the filesystem is still reachable. A picture that fails here fails the same way in a
/// job, where it gets its typed answer, so failures are not reported twice.
enum DecoderWarmUp {
    /// 8×8 grey pictures, made with libvips for this purpose; and 8×8 documents and drawings whose text
    /// loads the font machinery of librsvg and poppler (a PDF's unembedded Helvetica is looked up through
    /// fontconfig) before the seal.
    static let pictures: [(kind: String, base64: String)] = [
        (
            "jpg",
            "/9j/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/"
                + "2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAAR"
                + "CAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQID"
                + "AAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNk"
                + "ZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl"
                + "5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC"
                + "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpj"
                + "ZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk"
                + "5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCvRRRQB//Z"
        ),
        (
            "png",
            "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWOowAEYhpYE"
                + "ACrVWgHfA7Y0AAAAAElFTkSuQmCC"
        ),
        (
            "gif",
            "R0lGODlhCAAIAIAAAEdwTHh4eCH/C05FVFNDQVBFMi4wAwEAAAAh+QQFAAAAACwAAAAACAAIAAACB4yPqcvtXQAAOw=="
        ),
        (
            "webp",
            "UklGRvgAAABXRUJQVlA4WAoAAAAIAAAABwAABwAAVlA4IBgAAAAwAQCdASoIAAgAAgA0JaQAA3AA/tc8AABFWElGugAAAEV4"
                + "aWYAAElJKgAIAAAABgASAQMAAQAAAAEAAAAaAQUAAQAAAFYAAAAbAQUAAQAAAF4AAAAoAQMAAQAAAAIAAAATAgMAAQAAAAEA"
                + "AABphwQAAQAAAGYAAAAAAAAAOGMAAOgDAAA4YwAA6AMAAAYAAJAHAAQAAAAwMjEwAZEHAAQAAAABAgMAAKAHAAQAAAAwMTAw"
                + "AaADAAEAAAD//wAAAqAEAAEAAAAIAAAAA6AEAAEAAAAIAAAAAAAAAA=="
        ),
        (
            "tif",
            "SUkqAEgAAACAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICA"
                + "DwAAAQMAAQAAAAgAAAABAQMAAQAAAAgAAAACAQMAAQAAAAgAAAADAQMAAQAAAAEAAAAGAQMAAQAAAAEAAAARAQQAAQAAAAgA"
                + "AAASAQMAAQAAAAEAAAAVAQMAAQAAAAEAAAAWAQMAAQAAAIAAAAAXAQQAAQAAAEAAAAAaAQUAAQAAAAIBAAAbAQUAAQAAAAoB"
                + "AAAcAQMAAQAAAAEAAAAoAQMAAQAAAAMAAABTAQMAAQAAAAEAAAAAAAAACgAAAAEAAAAKAAAAAQAAAA=="
        ),
        (
            "svg",
            "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSI4IiBoZWlnaHQ9IjgiPjxyZWN0IHdpZHRo"
                + "PSI4IiBoZWlnaHQ9IjgiIGZpbGw9IiM4MDgwODAiLz48dGV4dCB4PSIwIiB5PSI3IiBmb250LXNpemU9IjYiPmE8L3RleHQ+"
                + "PC9zdmc+Cg=="
        ),
        (
            "pdf",
            "JVBERi0xLjQKMSAwIG9iago8PC9UeXBlL0NhdGFsb2cvUGFnZXMgMiAwIFI+PgplbmRvYmoKMiAwIG9iago8PC9UeXBlL1Bh"
                + "Z2VzL0tpZHNbMyAwIFJdL0NvdW50IDE+PgplbmRvYmoKMyAwIG9iago8PC9UeXBlL1BhZ2UvUGFyZW50IDIgMCBSL01lZGlh"
                + "Qm94WzAgMCA4IDhdL1Jlc291cmNlczw8L0ZvbnQ8PC9GMSA1IDAgUj4+Pj4vQ29udGVudHMgNCAwIFI+PgplbmRvYmoKNCAw"
                + "IG9iago8PC9MZW5ndGggNDc+PgpzdHJlYW0KMC41IGcgMCAwIDggOCByZSBmIEJUIC9GMSA2IFRmIDAgMSBUZCAoYSkgVGog"
                + "RVQKZW5kc3RyZWFtCmVuZG9iago1IDAgb2JqCjw8L1R5cGUvRm9udC9TdWJ0eXBlL1R5cGUxL0Jhc2VGb250L0hlbHZldGlj"
                + "YT4+CmVuZG9iagp4cmVmCjAgNgowMDAwMDAwMDAwIDY1NTM1IGYgCjAwMDAwMDAwMDkgMDAwMDAgbiAKMDAwMDAwMDA1NCAw"
                + "MDAwMCBuIAowMDAwMDAwMTA1IDAwMDAwIG4gCjAwMDAwMDAyMTMgMDAwMDAgbiAKMDAwMDAwMDMwOCAwMDAwMCBuIAp0cmFp"
                + "bGVyCjw8L1NpemUgNi9Sb290IDEgMCBSPj4Kc3RhcnR4cmVmCjM3MQolJUVPRgo="
        ),
        ("jxl", "/wpBQFDcCAgCAQBEAEsYixXCSUFOAAAAAAAAAAAA"),
    ]

    /// A bucket that renders every output format.
    static let bucket = """
        {"name": "warm-up", "allowedMimeTypes": ["image/*", "application/pdf"], "variants": {
         "webp": {"width": 4, "format": "webp"}, "jpeg": {"width": 4, "format": "jpeg"},
         "png": {"width": 4, "format": "png"}, "avif": {"width": 4, "format": "avif"}}}
        """

    static func run(_ pipeline: Pipeline) {
        LocalTime.load()
        PopplerTables.hold()
        let bucket = try? BucketDeclaration(parsing: bucket.utf8)
        var pipeline = pipeline
        pipeline.store = nil
        for picture in pictures {
            guard let data = Data(base64Encoded: picture.base64) else { continue }
            var timings = StageTimings()
            let object = ObjectRequest(bucket: "warm-up", path: "warm-up.\(picture.kind)")
            _ = try? pipeline.run(
                RenditionOrder(object, bucket: bucket), bytes: [UInt8](data), timings: &timings)
        }
    }
}
