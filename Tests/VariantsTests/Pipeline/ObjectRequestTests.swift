import Testing

@testable import Variants

/// The one check of an object's name as clients send it, shared by jobs and render requests.
@Suite struct ObjectRequestTests {
    @Test func aWellFormedObjectIsKeptAsSent() throws {
        let object = try ObjectRequest(
            checking: "post-images", path: "2026/12/IMG 0001 é.heic", declaredContentType: "image/heic")
        #expect(
            object
                == ObjectRequest(
                    bucket: "post-images", path: "2026/12/IMG 0001 é.heic", declaredContentType: "image/heic")
        )
    }

    @Test(
        arguments: [
            ("Bad Bucket", "a.jpg", nil, "bucket:"),
            ("photos", "", nil, "path:"),
            ("photos", String(repeating: "a", count: 1025), nil, "path:"),
            ("photos", "a\u{7F}.jpg", nil, "path:"),
            ("photos", "line\nbreak.jpg", nil, "path:"),
            ("photos", "a.jpg", "image/jpeg\r\nX-Injected: 1", "declaredContentType:"),
            ("photos", "a.jpg", "", "declaredContentType:"),
        ] as [(String, String, String?, String)])
    func eachFieldIsRefusedByName(bucket: String, path: String, type: String?, field: String) {
        let error = #expect(throws: VariantsError.self) {
            try ObjectRequest(checking: bucket, path: path, declaredContentType: type)
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.hasPrefix(field) == true, "\(error?.message ?? "")")
    }
}
