import Testing

@testable import Variants

/// A job's ceilings narrow its bucket's policy and never widen it.
@Suite struct JobCeilingsTests {
    private let images = try! BucketDeclaration(
        parsing: #"{"name": "b", "fileSizeLimit": 1000, "allowedMimeTypes": ["image/*"]}"#.utf8
    ).policy
    private let everything = try! BucketDeclaration(parsing: #"{"name": "open"}"#.utf8).policy

    @Test func narrowerCeilingsReplaceTheBucketsAtTheirBoundary() throws {
        let same = try images.narrowed(by: try JobCeilings(maxBytes: 1000, allowedTypes: ["image/*"]))
        #expect(same.fileSizeLimit == 1000 && same.allowedMimeTypes == [.anySubtype(of: "image")])
        let narrower = try images.narrowed(by: try JobCeilings(maxBytes: 999, allowedTypes: ["IMAGE/PNG"]))
        #expect(narrower.fileSizeLimit == 999 && narrower.allowedMimeTypes == [.exact("image/png")])
        #expect(narrower.allows(contentType: "image/png") && !narrower.allows(contentType: "image/jpeg"))
        #expect(try images.narrowed(by: .none) == images)
        let blocking = try BucketDeclaration(parsing: #"{"name": "b", "blockExecutables": true}"#.utf8).policy
        #expect(try blocking.narrowed(by: JobCeilings(maxBytes: 10)).blockExecutables, "kept")
        #expect(
            try everything.narrowed(by: try JobCeilings(maxBytes: 1 << 40, allowedTypes: ["*/*"]))
                .fileSizeLimit
                == 1 << 40)
    }

    @Test func widerCeilingsAreRefusedNotCapped() {
        for ceilings in [
            JobCeilings(maxBytes: 1001), JobCeilings(allowedTypes: [.any]),
            JobCeilings(allowedTypes: [.exact("application/pdf")]),
            JobCeilings(allowedTypes: [.exact("image/png"), .anySubtype(of: "text")]),
        ] {
            #expect(throws: VariantsError.self, "\(ceilings)") { try images.narrowed(by: ceilings) }
            let error = try? #require(throws: VariantsError.self) { try images.narrowed(by: ceilings) }
            #expect(error?.code == .invalidRequest)
        }
    }

    @Test func ceilingsAreReadAtTheEdge() {
        for (maxBytes, types) in [(0, nil), (nil, ["image"]), (nil, ["image/png", "*/png"])]
            as [(Int?, [String]?)]
        {
            #expect(throws: VariantsError.self) { try JobCeilings(maxBytes: maxBytes, allowedTypes: types) }
        }
    }
}
