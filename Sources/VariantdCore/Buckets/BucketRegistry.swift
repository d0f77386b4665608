import Foundation
import Synchronization
import Variants

/// The bucket declarations of a `--buckets` directory (`<name>.json` each), parsed once and looked up by
/// name per job; replaced as a whole on a reload (SIGHUP for the daemon, a change of the files for the
/// queue worker).
final class BucketRegistry: Sendable {
    let directory: String?
    private let state: Mutex<(buckets: [String: RegisteredBucket], stamp: [String: FileIdentity])>

    init(directory: String?) throws(UsageError) {
        self.directory = directory
        let stamp = directory.map(Self.stamp) ?? [:]
        state = Mutex((try directory.map(Self.load) ?? [:], stamp))
    }

    func bucket(named name: String) -> BucketDeclaration? {
        registered(named: name)?.declaration
    }

    func registered(named name: String) -> RegisteredBucket? {
        state.withLock { $0.buckets[name] }
    }

    var count: Int { state.withLock { $0.buckets.count } }

    /// The spec keys of every variant any bucket declares, as the declarations now stand.
    var declaredSpecKeys: Set<String> {
        state.withLock { Set($0.buckets.values.flatMap { $0.outputs.map(\.specKey) }) }
    }

    /// Reads the directory again; on any error the previous declarations all stay in force.
    func reload() throws(UsageError) -> Int {
        guard let directory else { return 0 }
        let stamp = Self.stamp(directory)
        let fresh = try Self.load(directory)
        state.withLock { $0 = (fresh, stamp) }
        return fresh.count
    }

    /// Reloads when a declaration file was added, removed or modified since the last try; nil when
    /// nothing changed. A failed try is not made again until the files change once more, so an invalid
    /// edit is reported once, not at every check.
    func reloadIfChanged() throws(UsageError) -> Int? {
        guard let directory else { return nil }
        let stamp = Self.stamp(directory)
        guard stamp != state.withLock({ $0.stamp }) else { return nil }
        do {
            return try reload()
        } catch {
            state.withLock { $0.stamp = stamp }
            throw error
        }
    }

    /// What `stat` says of every declaration file and every PNG beside them (watermarks), through symbolic
    /// links: a linked declaration changes with its target, and a copy renamed into place with its old size
    /// and time has another inode.
    private static func stamp(_ directory: String) -> [String: FileIdentity] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var stamp: [String: FileIdentity] = [:]
        for name in names where name.hasSuffix(".json") || name.hasSuffix(".png") {
            stamp[name] = FileIdentity(path: directory + "/" + name)
        }
        return stamp
    }

    private static func load(_ directory: String) throws(UsageError) -> [String: RegisteredBucket] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw UsageError("The bucket directory '\(directory)' cannot be read")
        }
        var result: [String: RegisteredBucket] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            let bucket = try BucketDeclarationFile.read(directory + "/" + name)
            guard bucket.name + ".json" == name else {
                throw UsageError("The bucket declaration '\(name)' declares the bucket '\(bucket.name)'")
            }
            result[bucket.name] = RegisteredBucket(bucket)
        }
        return result
    }
}
