import Foundation
import Variants

extension OnDemandBudget {
    /// Records the renditions a folder store already holds, each last used when it was written, so those
    /// made before this daemon started count too. Only names of the store's own shape are taken
    /// (`StoredRenditionName`), and renditions of declared spec keys are left alone. Blocks; run once, in the
    /// background.
    ///
    /// - Returns: how many renditions were recorded.
    @discardableResult
    func recordStored(inFolder root: String) -> Int {
        let files = FileManager.default
        let declared = registry.declaredSpecKeys
        var recorded = 0
        for prefix in (try? files.contentsOfDirectory(atPath: root)) ?? []
        where StoredRenditionName.isPrefix(prefix) {
            for source in (try? files.contentsOfDirectory(atPath: root + "/" + prefix)) ?? []
            where StoredRenditionName.isSource(source, under: prefix) {
                let directory = prefix + "/" + source
                for name in (try? files.contentsOfDirectory(atPath: root + "/" + directory)) ?? [] {
                    guard let key = StoredRenditionName.key(directory + "/" + name)?.key,
                        let file = FileIdentity(path: root + "/" + key)
                    else { continue }
                    let used = Int64(file.modified.tv_sec) * 1_000_000_000 + Int64(file.modified.tv_nsec)
                    if record(key, size: Int(file.size), used: used, unless: declared) { recorded += 1 }
                }
            }
        }
        return recorded
    }

    /// Records the renditions a bucket already holds, each last used at its `LastModified`, one listing page
    /// at a time. Blocks; run once, in the background.
    ///
    /// - Returns: how many renditions were recorded.
    /// - Throws: the store's error when a page cannot be listed; those recorded before it stay.
    @discardableResult
    func recordStored(inBucket client: S3Client, at location: S3Location) throws(S3Error) -> Int {
        let declared = registry.declaredSpecKeys
        let dates = ListingDate()
        var recorded = 0
        try client.list(bucket: location.bucket, prefix: location.listPrefix) { objects in
            for object in objects {
                guard let key = StoredRenditionName.key(location.relative(object.key))?.key,
                    let modified = object.lastModified.flatMap(dates.parse)
                else { continue }
                let used = Int64(modified.timeIntervalSince1970 * 1e9)
                if record(key, size: object.size, used: used, unless: declared) { recorded += 1 }
            }
        }
        return recorded
    }

    /// Records one rendition found in the store unless a bucket declares its spec key.
    private func record(_ key: String, size: Int, used: Int64, unless declared: Set<String>) -> Bool {
        guard let name = key.split(separator: "/").last,
            !declared.contains(RenditionKey.specKey(ofFileName: name))
        else { return false }
        recordFound(key, size: size, used: used)
        return true
    }
}
