import Foundation
import Testing

@testable import VariantdCore

@Suite struct HTMLTextTests {
    @Test func markupInNamesAndMessagesIsEscaped() {
        #expect(
            HTMLText.escaped("<img src=x onerror='a&b'>\"")
                == "&lt;img src=x onerror=&apos;a&amp;b&apos;&gt;&quot;")
        #expect(HTMLText.escaped("photos/été.jpg") == "photos/été.jpg")
    }

    @Test func linksPercentEncodeEverythingButUnreservedCharactersAndSlashes() {
        #expect(HTMLText.urlPath("../out dir/a#b?c%d/ab/k.webp") == "../out%20dir/a%23b%3Fc%25d/ab/k.webp")
        #expect(HTMLText.urlPath("é") == "%C3%A9")
    }

    @Test func countsAndBytesReadAsPeopleWriteThem() {
        #expect(HTMLText.count(0) == "0")
        #expect(HTMLText.count(999) == "999")
        #expect(HTMLText.count(1000) == "1,000")
        #expect(HTMLText.count(1_234_567) == "1,234,567")
        #expect(HTMLText.bytes(930) == "930 B")
        #expect(HTMLText.bytes(63_800) == "63.8 kB")
        #expect(HTMLText.bytes(4_560_000) == "4.6 MB")
        // A size that rounds up to the next unit is read in that unit.
        #expect(HTMLText.bytes(999_960) == "1.0 MB")
        #expect(HTMLText.bytes(999_940) == "999.9 kB")
    }

    @Test func relativePathsClimbOutOfTheReportsFolderOnlyAsFarAsNeeded() {
        #expect(RelativePath.from("/tmp/x/out", to: "/tmp/x/out/renditions") == "renditions")
        #expect(RelativePath.from("/tmp/x/pages", to: "/tmp/x/out/renditions") == "../out/renditions")
        #expect(RelativePath.from("/tmp/x/a/b", to: "/tmp/x/out/renditions") == "../../out/renditions")
    }

    @Test func sizesFitTheBoundOnTheirLongerSide() {
        #expect(ContactSheet.fitted(200, 200, within: 256) == (200, 200))
        #expect(ContactSheet.fitted(1600, 1000, within: 256) == (256, 160))
        #expect(ContactSheet.fitted(29, 100, within: 128, enlarging: true) == (37, 128))
    }
}
