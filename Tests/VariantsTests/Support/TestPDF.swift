/// A PDF written by hand, object by object, with a correct cross-reference table: pages of content streams
/// the tests know the look of.
struct TestPDF {
    /// One page: its media box in points and its content stream (PDF drawing operators, origin bottom left).
    struct Page {
        var width: Int
        var height: Int
        var rotate = 0
        var content = ""
    }

    var pages: [Page]
    /// A standard security handler whose user password is not empty (its `/U` matches no empty password):
    /// nobody opens it without the password.
    var encrypted = false

    var bytes: [UInt8] {
        var objects = ["<</Type/Catalog/Pages 2 0 R>>"]
        let kids = pages.indices.map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append("<</Type/Pages/Kids[\(kids)]/Count \(pages.count)>>")
        for (index, page) in pages.enumerated() {
            objects.append(
                "<</Type/Page/Parent 2 0 R/MediaBox[0 0 \(page.width) \(page.height)]/Rotate \(page.rotate)"
                    + "/Contents \(4 + 2 * index) 0 R>>")
            objects.append("<</Length \(page.content.utf8.count)>>\nstream\n\(page.content)\nendstream")
        }
        var trailer = "/Size \(objects.count + 1)/Root 1 0 R"
        if encrypted {
            let hex = String(repeating: "5A", count: 32)
            objects.append("<</Filter/Standard/V 1/R 2/O<\(hex)>/U<\(hex)>/P -4>>")
            trailer =
                "/Size \(objects.count + 1)/Root 1 0 R/Encrypt \(objects.count) 0 R"
                + "/ID[<0123456789ABCDEF0123456789ABCDEF><0123456789ABCDEF0123456789ABCDEF>]"
        }
        var out = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8)
        }
        let table = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets {
            let digits = String(offset)
            out += Array((String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n").utf8)
        }
        out += Array("trailer\n<<\(trailer)>>\nstartxref\n\(table)\n%%EOF\n".utf8)
        return out
    }
}
