import Variants

/// A SeaweedFS filer's webhook body (`[notification.webhook]` in `notification.toml`): one event per POST,
/// `{event_type, key, message: {old_entry?, new_entry?, new_parent_path?}}`, `key` a filer path as written
/// (not URL-encoded).
///
/// An object is a file at `/buckets/<bucket>/<key>`; directories, other paths and SeaweedFS's own
/// `.system` files are counted as ignored, once for each path the event names (a rename names two). Only the
/// fields read are decoded, so the filer's other fields (chunk ids, inodes past `Int64`) are not checked.
struct FilerEvent: Decodable {
    let event: StorageEvent

    private enum CodingKeys: String, CodingKey {
        case eventType = "event_type"
        case key, message
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .eventType)
        let path = try container.decode(String.self, forKey: .key)
        let message = try container.decode(Message.self, forKey: .message)
        var changes: [StorageChange] = []
        var ignored = 0
        let isDirectory = message.newEntry?.isDirectory == true || message.oldEntry?.isDirectory == true
        func add(_ path: String, _ kind: StorageChange.Kind, _ entry: Entry) {
            guard !isDirectory, let object = Self.object(at: path) else {
                ignored += 1
                return
            }
            changes.append(
                StorageChange(
                    bucket: object.bucket, key: object.key, kind: kind, version: entry.version(kind)))
        }
        switch type {
        case "create", "update":
            add(path, .written, try message.required(\.newEntry, "new_entry", for: type))
        case "delete":
            add(path, .removed, try message.required(\.oldEntry, "old_entry", for: type))
        case "rename":
            let moved = try message.required(\.newEntry, "new_entry", for: type)
            guard let parent = message.newParentPath, let name = moved.name else {
                let missing = message.newParentPath == nil ? "new_parent_path" : "new_entry.name"
                throw VariantsError(
                    .invalidRequest, "message.\(missing): missing, and a rename names its new path by it")
            }
            add(path, .removed, message.oldEntry ?? moved)
            add(parent.hasSuffix("/") ? parent + name : parent + "/" + name, .written, moved)
        default:
            ignored += 1
        }
        event = StorageEvent(changes: changes, ignored: ignored)
    }

    /// The bucket and key of an object's filer path, `/buckets/<bucket>/<key...>`; nil for a path elsewhere,
    /// a bucket or key left empty, or a part starting `.system` (SeaweedFS's own bookkeeping).
    static func object(at path: String) -> (bucket: String, key: String)? {
        let root = "/buckets/"
        guard path.utf8.starts(with: root.utf8) else { return nil }
        let rest = Substring(path.utf8.dropFirst(root.utf8.count))
        let bucket = rest.prefix { $0 != "/" }
        let key = rest.dropFirst(bucket.count + 1)
        guard !bucket.isEmpty, !key.isEmpty,
            !rest.split(separator: "/").contains(where: { $0.hasPrefix(".system") })
        else { return nil }
        return (String(bucket), String(key))
    }

    private struct Message: Decodable {
        let newEntry: Entry?
        let oldEntry: Entry?
        let newParentPath: String?

        private enum CodingKeys: String, CodingKey {
            case newEntry = "new_entry"
            case oldEntry = "old_entry"
            case newParentPath = "new_parent_path"
        }

        /// The entry an event type cannot be read without.
        func required(
            _ entry: KeyPath<Message, Entry?>, _ name: String, for type: String
        ) throws(VariantsError) -> Entry {
            guard let found = self[keyPath: entry] else {
                throw VariantsError(.invalidRequest, "message.\(name): missing, and a \(type) event needs it")
            }
            return found
        }
    }

    private struct Entry: Decodable {
        let name: String?
        let isDirectory: Bool
        let chunkTags: [String]
        let attributes: Attributes

        private enum CodingKeys: String, CodingKey {
            case name, chunks, attributes
            case isDirectory = "is_directory"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            isDirectory = try container.decodeIfPresent(Bool.self, forKey: .isDirectory) ?? false
            chunkTags = try container.decodeIfPresent([Chunk].self, forKey: .chunks)?.compactMap(\.eTag) ?? []
            attributes = try container.decodeIfPresent(Attributes.self, forKey: .attributes) ?? Attributes()
        }

        /// A written entry's content hash (its MD5, else its chunks' ETags) with its time and size; a removed
        /// one's time and MD5, which a repeated delete carries unchanged.
        func version(_ kind: StorageChange.Kind) -> String {
            let time: [(name: String, value: String?)] = [
                ("mtime", attributes.mtime), ("mtime_ns", attributes.mtimeNs),
            ]
            switch kind {
            case .written:
                let content: [(name: String, value: String?)] =
                    attributes.md5 != nil ? [("md5", attributes.md5)] : chunkTags.map { ("etag", $0) }
                return StorageChange.version(.written, content + time + [("size", attributes.fileSize)])
            case .removed:
                return StorageChange.version(.removed, time + [("md5", attributes.md5)])
            }
        }
    }

    private struct Chunk: Decodable {
        let eTag: String?

        private enum CodingKeys: String, CodingKey {
            case eTag = "e_tag"
        }
    }

    /// The attributes a version is made of; numbers kept as text, as written, whether the filer wrote them
    /// as JSON numbers or (as protobuf's JSON form does for 64-bit ones) strings.
    private struct Attributes: Decodable {
        var fileSize: String?
        var mtime: String?
        var mtimeNs: String?
        var md5: String?

        private enum CodingKeys: String, CodingKey {
            case mtime, md5
            case fileSize = "file_size"
            case mtimeNs = "mtime_ns"
        }

        init() {}

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func number(_ key: CodingKeys) throws -> String? {
                if let value = try? container.decodeIfPresent(Int64.self, forKey: key) {
                    return String(value)
                }
                if let value = try? container.decodeIfPresent(UInt64.self, forKey: key) {
                    return String(value)
                }
                return try container.decodeIfPresent(String.self, forKey: key)
            }
            fileSize = try number(.fileSize)
            mtime = try number(.mtime)
            mtimeNs = try number(.mtimeNs)
            md5 = try container.decodeIfPresent(String.self, forKey: .md5)
        }
    }
}
