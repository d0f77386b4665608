import Foundation
import Variants

/// Finds the benchmark's source files and sorts them into corpora by their sniffed type.
enum CorpusDiscovery {
    /// The third-party test corpus, when it lies beside the checkout; a plain clone has none.
    static let sharedCorpus = "../shared/corpus"
    /// The repository's own small pictures, used when the third-party corpus is absent.
    static let samples = "Samples/pictures"

    /// `--corpus DIR`: every picture under DIR. Without it, the real photos (`photos/`: jpeg, heic, 200mp)
    /// and the PNG, WebP, AVIF and GIF files of the format folders (`formats/`) of the shared corpus, so the
    /// jpeg and heic rows are the camera and phone photos the targets were measured on; else the samples.
    static func discover(_ directory: String?) -> [BenchCorpus] {
        if let directory { return BenchCorpus.group(pictures(under: directory)) }
        guard FileManager.default.fileExists(atPath: sharedCorpus + "/photos") else {
            return BenchCorpus.group(pictures(under: samples))
        }
        let photos = BenchCorpus.group(pictures(under: sharedCorpus + "/photos")) {
            ["jpeg", "heic", "200mp"].contains($0)
        }
        let formats = BenchCorpus.group(pictures(under: sharedCorpus + "/formats")) {
            !["jpeg", "heic", "200mp"].contains($0)
        }
        return photos + formats
    }

    /// Regular files under `directory` (recursively) whose first bytes sniff as a picture type; a GIF or WebP
    /// is animated when its header declares more than one frame.
    static func pictures(under directory: String) -> [(path: String, type: MediaType, animated: Bool)] {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var found: [(path: String, type: MediaType, animated: Bool)] = []
        let pipeline = try? Pipeline()
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let handle = try? FileHandle(forReadingFrom: url)
            else { continue }
            let prefix = (try? handle.read(upToCount: Sniffer.prefixLength)) ?? Data()
            try? handle.close()
            guard let type = Sniffer.sniff([UInt8](prefix)[...]) else { continue }
            let animated = [.gif, .webp].contains(type) && pipeline.map { frames(url, $0) > 1 } == true
            found.append((url.path, type, animated))
        }
        return found
    }

    /// The frame count a GIF or WebP declares, as the product reports it (without a bucket or a placeholder
    /// only the first frame is decoded, small); 1 when it cannot be read (the run reports the file).
    private static func frames(_ url: URL, _ pipeline: Pipeline) -> Int {
        guard let bytes = try? Data(contentsOf: url) else { return 1 }
        var timings = StageTimings()
        let order = RenditionOrder(
            ObjectRequest(bucket: "bench", path: url.path), bucket: nil, placeholder: false)
        let metadata = try? pipeline.run(order, bytes: [UInt8](bytes), timings: &timings)
        return metadata?.frames ?? 1
    }
}
