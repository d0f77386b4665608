import Foundation
import Variants

/// The walk of the rendition store after the scan: each source's prefix, `<sha[0..2]>/<sha>/`, in turn, one
/// directory or listing page at a time. A rendition whose source bytes are in no object the scan saw goes
/// once it is older than the grace period; with `dryRun` it is only named.
///
/// Only names of the store's own shape are looked at — two hex digits, then the 64 hex digits of a checksum
/// beginning with them, then a file — so hidden names (`.tmp`, the quarantine), and anything else that
/// shares the location, stay whatever they are.
struct RenditionSweep {
    enum Location: Sendable {
        case folder(String)
        case bucket(S3Client, S3Location)
    }

    let location: Location
    let isLive: (String) throws(GCError) -> Bool
    let grace: Duration
    let dryRun: Bool
    let progress: GCProgress
    /// Called with each rendition a dry run would remove: its location and size.
    let wouldRemove: (String, Int) -> Void
    let now = Date()

    func sweep() throws(GCError) {
        switch location {
        case .folder(let root): try sweep(folder: root)
        case .bucket(let client, let location): try sweep(client: client, location: location)
        }
    }

    private func sweep(folder root: String) throws(GCError) {
        for prefix in try names(in: root) where StoredRenditionName.isPrefix(prefix) {
            for checksum in try names(in: root + "/" + prefix)
            where StoredRenditionName.isSource(checksum, under: prefix) {
                let directory = root + "/" + prefix + "/" + checksum
                let live = try isLive(checksum)
                var removedHere = false
                for name in try names(in: directory) where !name.hasPrefix(".") {
                    let path = directory + "/" + name
                    // Only regular files are renditions; a name gone since the listing was removed by another.
                    guard let file = FileIdentity(path: path) else { continue }
                    let modified = Date(
                        timeIntervalSince1970: Double(file.modified.tv_sec) + Double(file.modified.tv_nsec)
                            / 1e9)
                    guard decide(live: live, modified: modified, size: Int(file.size), at: path) else {
                        continue
                    }
                    do {
                        try FileManager.default.removeItem(atPath: path)
                    } catch
                        where [.fileNoSuchFile, .fileReadNoSuchFile].contains((error as? CocoaError)?.code)
                    {
                        continue
                    } catch {
                        throw GCError(.ioError, "\(path) cannot be removed: \(error)")
                    }
                    removedHere = true
                }
                // Only while it is empty: a rendition linked into it meanwhile keeps it.
                if removedHere { _ = EmptyFolder.remove(directory) }
            }
        }
    }

    private func sweep(client: S3Client, location: S3Location) throws(GCError) {
        var token: String?
        // A source's keys come one after another: its liveness is looked up once.
        var last: (checksum: String, live: Bool)?
        let dates = ListingDate()
        repeat {
            let page: (objects: [S3Object], next: String?)
            do {
                page = try client.listPage(bucket: location.bucket, prefix: location.listPrefix, after: token)
            } catch {
                throw GCError(error)
            }
            for object in page.objects {
                guard let checksum = StoredRenditionName.key(location.relative(object.key))?.source else {
                    continue
                }
                let live: Bool
                if let last, last.checksum == checksum {
                    live = last.live
                } else {
                    live = try isLive(checksum)
                    last = (checksum, live)
                }
                // A listing without a date it can read is taken as new: kept until a later run can tell.
                let modified = object.lastModified.flatMap(dates.parse) ?? now
                let name = "s3://\(location.bucket)/\(object.key)"
                guard decide(live: live, modified: modified, size: object.size, at: name) else { continue }
                do {
                    try client.delete(bucket: location.bucket, key: object.key)
                } catch {
                    throw GCError(error)
                }
            }
            token = page.next
        } while token != nil
    }

    /// Counts one rendition and says whether to remove it now (never in a dry run, which names it instead).
    private func decide(live: Bool, modified: Date, size: Int, at name: String) -> Bool {
        progress.checkedOne()
        if live {
            progress.update { $0.keptLive += 1 }
            return false
        }
        if now.timeIntervalSince(modified) < grace / .seconds(1) {
            progress.update { $0.keptYoung += 1 }
            return false
        }
        progress.update {
            $0.removed += 1
            $0.bytesFreed += Int64(size)
        }
        if dryRun { wouldRemove(name, size) }
        return !dryRun
    }

    /// A directory's names in byte order (so runs agree), hidden ones included for the caller to judge; none
    /// when it is gone. One that cannot be read stops the sweep.
    private func names(in directory: String) throws(GCError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory).sorted {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
        } catch  where (error as? CocoaError)?.code == .fileReadNoSuchFile {
            return []
        } catch {
            throw GCError(.ioError, "\(directory) cannot be listed: \(error)")
        }
    }
}
