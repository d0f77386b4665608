import Foundation
import VariantdTestSupport

/// Every frame of an image as Chromium shows it: decoded by WebCodecs' `ImageDecoder` (composed on the
/// canvas, as the animation plays), drawn on a canvas and read back as 8-bit RGBA.
struct BrowserFrames {
    var width: Int
    var height: Int
    /// One RGBA buffer per frame, row after row.
    var frames: [[UInt8]]

    /// The page logs one `frame WIDTH HEIGHT BASE64` message per frame, then `end` (or `error WHY`), and
    /// closes its window.
    private static let script = """
        const log = message => console.log(message);
        (async () => {
          try {
            const bytes = Uint8Array.from(atob(source), c => c.charCodeAt(0));
            const decoder = new ImageDecoder({ data: bytes, type });
            await decoder.tracks.ready;
            await decoder.completed;
            for (let index = 0; index < decoder.tracks.selectedTrack.frameCount; index++) {
              const { image } = await decoder.decode({ frameIndex: index });
              const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
              const context = canvas.getContext("2d", { willReadFrequently: true });
              context.drawImage(image, 0, 0);
              image.close();
              const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
              let text = "";
              for (let at = 0; at < pixels.length; at += 0x8000) {
                text += String.fromCharCode(...pixels.subarray(at, at + 0x8000));
              }
              log(`frame ${canvas.width} ${canvas.height} ${btoa(text)}`);
            }
            log("end");
          } catch (error) {
            log(`error ${error}`);
          }
          window.close();
        })();
        """

    init(decoding bytes: [UInt8], type: String) async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("frames.html")
        let html = """
            <!doctype html><html><body><script>
            const source = "\(Data(bytes).base64EncodedString())";
            const type = "\(type)";
            \(Self.script)
            </script></body></html>
            """
        try Data(html.utf8).write(to: page)
        let messages = try await Chromium.consoleMessages(of: page)
        guard messages.last == "end" else {
            throw Chromium.Failed(
                description: "Chromium did not decode every frame: \(messages.last ?? "no message")")
        }
        (width, height, frames) = (0, 0, [])
        for message in messages.dropLast() {
            let fields = message.split(separator: " ")
            guard fields.count == 4, fields[0] == "frame", let width = Int(fields[1]),
                let height = Int(fields[2]),
                let pixels = Data(base64Encoded: String(fields[3])), pixels.count == width * height * 4
            else { throw Chromium.Failed(description: "unexpected message \(message.prefix(80))") }
            (self.width, self.height) = (width, height)
            frames.append([UInt8](pixels))
        }
    }
}
