import Foundation
import Variants

/// `variantd render FILE [options] -o OUT|-`: one on-demand transform of a local file, with the daemon's
/// options and rules, for scripts and for checking a transform by hand.
package struct RenderCommand: Subcommand {
    package static let name = "render"
    package static let abstract = "Render one transform of a file, with the options of GET /v1/render."
    package static let usage =
        "render <file> [--width <n>] [--height <n>] [--fit <fit>] [--format <format>] [options] -o <out>|-"
    package static let details = """
        ARGUMENTS:
          <file>                  The picture to render.

        OPTIONS (the query options of GET /v1/render, same names, ranges and defaults):
          --width <n>, --height <n>   The box; above 4096 reads as 4096; neither keeps the picture's size.
          --fit <fit>             cover, contain, fill, inside, outside.
          --position <position>   centre, north, …, entropy, attention (cover only).
          --format <format>       jpeg (default), png, webp, avif, original.
          --quality <q>           1…100, auto, or {"ssimulacra2":N} with N in 30…95.
          --blur <sigma>          0…20.
          --sharpen <sigma>       0…10.
          --rotate <degrees>      A multiple of 90 in -360…360.
          --background <colour>   #rgb, #rrggbb, #rrggbbaa or [r,g,b(,a)].
          --withoutEnlargement <true|false>
          --animated <true|false> Keep an animated GIF's or WebP's frames in a WebP (default true).
          --progressive <true|false>
                                  A progressive JPEG; false: one baseline scan (default true).
          --effort <n>            0…6: libwebp's effort for a WebP, more for fewer bytes (default 4).
          --dpr <ratio>           1…4: multiplies the width and height.
          --flip <h|v|hv>         Mirror after the rotation.
          --focus <x,y>           Fractions 0…1 of the picture: cover crops keep that point centred.
          --trim <threshold>      0…255: remove a border of the top-left pixel's colour first.
          --metadata <m>          none (default) or copyright: keep the source's EXIF Artist and
                                  Copyright and XMP dc:rights in a JPEG, WebP or AVIF.
          --watermark <name>      Place the bucket's watermark of that name (see --bucket).
          --bucket <file>         The bucket declaration the file belongs to (default: the embedded
                                  post-images bucket): a transform it declares is made as a job makes it.
          -o, --output <file>     Where to write the rendition; - writes it to stdout.
          -h, --help              Show help information.

        The picture is decoded in a decoder child, as in the daemon. A bad option is a usage error (64); a
        file that cannot be rendered prints the error JSON on stderr and exits 1 (66 when it is missing); an
        output that cannot be written exits 74.
        """

    static let options = [
        "width", "height", "fit", "position", "format", "quality", "blur", "sharpen", "rotate", "background",
        "withoutEnlargement", "animated", "progressive", "effort", "dpr", "flip", "focus", "trim", "metadata",
        "watermark",
    ]

    let file: String
    let output: String
    let transform: Transform
    let declaration: BucketDeclaration

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        var query: [(name: String, value: String)] = []
        for name in Self.options {
            if let value = try arguments.option("--" + name) { query.append((name, value)) }
        }
        declaration = try arguments.option("--bucket").map(BucketDeclarationFile.read) ?? .default
        guard let output = try arguments.option("-o", "--output") else {
            throw UsageError("Missing '-o <file>' (or '-' for stdout)")
        }
        let files = try arguments.positionals()
        guard files.count == 1 else { throw UsageError("Expected one <file>, got \(files.count)") }
        do {
            transform = try Transform(query: query, accept: nil, watermarks: declaration.watermarks)
        } catch {
            throw UsageError(error.message)
        }
        self.file = URL(fileURLWithPath: files[0]).standardizedFileURL.path
        self.output = output
    }

    package func run() async throws -> ExitStatus {
        let name = (file as NSString).lastPathComponent
        let pool = PipelinePool(
            .init(executable: Executable.current, size: 1),
            objects: try ObjectFolder((file as NSString).deletingLastPathComponent), renditions: nil)
        let order = RenditionOrder(
            ObjectRequest(bucket: declaration.name, path: name),
            rendering: RenditionOutput(transform.spec, wanted: true),
            among: RegisteredBucket(declaration).outputs)
        let answer = await pool.fulfil(order, from: .stored(name))
        await pool.shutdown()
        let error: VariantsError
        switch answer.outcome {
        case .success(let metadata):
            if let key = metadata.renditions?.values.first?.key,
                let bytes = answer.files.first(where: { $0.key == key })?.bytes
            {
                // Not a usage error: the rendition is made, the place it was to go is not writable.
                guard write(bytes) else {
                    Console.error("Error: cannot write '\(output)'")
                    return .ioError
                }
                return .success
            }
            error = VariantsError(.unsupportedMediaType, "\(metadata.contentType) files are not pictures")
        case .failure(let failure):
            error = failure
        }
        Console.error(try WireJSON.line(error))
        return error.code == .notFound ? .noInput : .failure
    }

    /// Whether the rendition reached its output.
    private func write(_ bytes: [UInt8]) -> Bool {
        guard output != "-" else {
            FileHandle.standardOutput.write(Data(bytes))
            return true
        }
        return FileManager.default.createFile(atPath: output, contents: Data(bytes))
    }
}
