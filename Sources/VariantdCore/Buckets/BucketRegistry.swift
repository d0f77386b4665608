import Foundation
import Synchronization
import Variants

/// The bucket declarations of a `--buckets` directory (`<name>.json` each), looked up by name per job and
/// replaced as a whole on SIGHUP.
final class BucketRegistry: Sendable {
    let directory: String?
    private let declarations: Mutex<[String: BucketDeclaration]>

    init(directory: String?) throws(UsageError) {
        self.directory = directory
        declarations = Mutex(try directory.map(Self.load) ?? [:])
    }

    func declaration(named name: String) -> BucketDeclaration? {
        declarations.withLock { $0[name] }
    }

    var count: Int { declarations.withLock { $0.count } }

    /// Reads the directory again; on any error the previous declarations all stay in force.
    func reload() throws(UsageError) -> Int {
        guard let directory else { return 0 }
        let fresh = try Self.load(directory)
        declarations.withLock { $0 = fresh }
        return fresh.count
    }

    private static func load(_ directory: String) throws(UsageError) -> [String: BucketDeclaration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw UsageError("The bucket directory '\(directory)' cannot be read")
        }
        var result: [String: BucketDeclaration] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            let (text, spec) = try BucketDeclarationFile.read(directory + "/" + name)
            guard spec.name + ".json" == name else {
                throw UsageError("The bucket declaration '\(name)' declares the bucket '\(spec.name)'")
            }
            result[spec.name] = BucketDeclaration(text: text, spec: spec)
        }
        return result
    }
}
