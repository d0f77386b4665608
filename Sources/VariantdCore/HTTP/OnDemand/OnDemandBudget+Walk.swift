import Foundation
import Variants

extension OnDemandBudget {
    /// Records the renditions a folder store already holds, each last used when it was written, so those
    /// made before this daemon started count too. Only `<2 hex>/<64 hex>/<specKey>.<ext>` files are taken:
    /// hidden names (temporary files, the quarantine) and anything else are left alone, and so are
    /// renditions of declared spec keys. Blocks; run once, in the background.
    ///
    /// - Returns: how many renditions were recorded.
    @discardableResult
    func recordStored(inFolder root: String) -> Int {
        let files = FileManager.default
        let declared = registry.declaredSpecKeys
        var recorded = 0
        for shard in (try? files.contentsOfDirectory(atPath: root)) ?? [] where Self.isHex(shard, count: 2) {
            let shardPath = root + "/" + shard
            for source in (try? files.contentsOfDirectory(atPath: shardPath)) ?? []
            where Self.isHex(source, count: 64) && source.hasPrefix(shard) {
                let sourcePath = shardPath + "/" + source
                for name in (try? files.contentsOfDirectory(atPath: sourcePath)) ?? [] {
                    let specKey = RenditionKey.specKey(ofFileName: name)
                    guard !name.hasPrefix("."), !specKey.isEmpty, name.count > specKey.count + 1,
                        !declared.contains(specKey),
                        let attributes = try? files.attributesOfItem(atPath: sourcePath + "/" + name),
                        attributes[.type] as? FileAttributeType == .typeRegular,
                        let size = (attributes[.size] as? NSNumber)?.intValue,
                        let modified = attributes[.modificationDate] as? Date
                    else { continue }
                    recordFound(
                        shard + "/" + source + "/" + name, size: size,
                        used: Int64(modified.timeIntervalSince1970 * 1e9))
                    recorded += 1
                }
            }
        }
        return recorded
    }

    /// Lowercase hex digits, `count` of them.
    private static func isHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
