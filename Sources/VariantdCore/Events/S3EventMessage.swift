import Variants

/// An S3 event message, as MinIO, Ceph RGW and others post it: `{Records: [{eventName, s3: {bucket: {name},
/// object: {key, eTag?, sequencer?, versionId?}}}, …]}`, several records per body, other members unread.
///
/// `ObjectCreated` events are writes and `ObjectRemoved` ones removals; any other (`s3:ObjectAccessed:Get`,
/// `s3:TestEvent`) changes nothing and is counted as ignored without its `s3` member being read.
struct S3EventMessage: Decodable {
    let event: StorageEvent

    private enum CodingKeys: String, CodingKey {
        case records = "Records"
    }

    init(from decoder: any Decoder) throws {
        let records = try decoder.container(keyedBy: CodingKeys.self).decode([Record].self, forKey: .records)
        let changes = records.compactMap(\.change)
        event = StorageEvent(changes: changes, ignored: records.count - changes.count)
    }

    private struct Record: Decodable {
        /// nil for an event kind that changes nothing.
        let change: StorageChange?

        private enum CodingKeys: String, CodingKey {
            case eventName, s3
        }

        private enum S3Keys: String, CodingKey {
            case bucket, object
        }

        private enum BucketKeys: String, CodingKey {
            case name
        }

        private enum ObjectKeys: String, CodingKey {
            case key, eTag, sequencer, versionId
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let name = try container.decode(String.self, forKey: .eventName)
            let kind: StorageChange.Kind
            if name.contains("ObjectCreated") {
                kind = .written
            } else if name.contains("ObjectRemoved") {
                kind = .removed
            } else {
                change = nil
                return
            }
            let s3 = try container.nestedContainer(keyedBy: S3Keys.self, forKey: .s3)
            let bucket = try s3.nestedContainer(keyedBy: BucketKeys.self, forKey: .bucket)
                .decode(String.self, forKey: .name)
            let object = try s3.nestedContainer(keyedBy: ObjectKeys.self, forKey: .object)
            let encodedKey = try object.decode(String.self, forKey: .key)
            let at = StorageEvent.describe(decoder.codingPath)
            guard !bucket.isEmpty else {
                throw VariantsError(.invalidRequest, "\(at).s3.bucket.name: expected a bucket name, got ''")
            }
            guard let key = FormEncoding.decode(encodedKey), !key.isEmpty else {
                throw VariantsError(
                    .invalidRequest,
                    "\(at).s3.object.key: expected a form-encoded UTF-8 key (+ a space, %XX a byte), got "
                        + "'\(encodedKey.prefix(200))'")
            }
            let sequence: [(name: String, value: String?)] = [
                ("sequencer", try object.decodeIfPresent(String.self, forKey: .sequencer)),
                ("version", try object.decodeIfPresent(String.self, forKey: .versionId)),
            ]
            let content: [(name: String, value: String?)] =
                kind == .written ? [("etag", try object.decodeIfPresent(String.self, forKey: .eTag))] : []
            change = StorageChange(
                bucket: bucket, key: key, kind: kind, version: StorageChange.version(kind, content + sequence)
            )
        }
    }
}
