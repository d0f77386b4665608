import VariantdTestSupport

@testable import Variants

/// Another program's render of a file (`ReferenceProgram`), read back as an image to compare a rendition
/// with.
enum ReferenceRender {
    /// Whether `program` is installed (tests that need it are skipped without it).
    static func has(_ program: String) -> Bool {
        ReferenceProgram.has(program)
    }

    /// Runs `program` with `arguments(input, output)` on `bytes` saved as `input`, and reads the PNG it wrote to
    /// `output`.
    static func png(
        of bytes: [UInt8], named name: String, program: String,
        arguments: (_ input: String, _ output: String) -> [String]
    ) throws -> VipsImage {
        try VipsImage.load(
            .png,
            bytes: try ReferenceProgram.png(of: bytes, named: name, program: program, arguments: arguments)
        ).materialized()
    }
}
