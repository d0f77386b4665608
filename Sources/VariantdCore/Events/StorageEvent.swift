import Variants

/// A webhook body read: the changes it names, and how many entries it named that are not objects
/// (directories, SeaweedFS's own files, event kinds that change nothing), which the daemon counts.
///
/// Two shapes, told apart by their top-level keys: a SeaweedFS filer event (`event_type`, `FilerEvent`) or
/// an S3 event message (`Records`, `S3EventMessage`, what MinIO, Ceph RGW and others post).
struct StorageEvent: Sendable, Equatable {
    let changes: [StorageChange]
    let ignored: Int

    init(changes: [StorageChange], ignored: Int) {
        self.changes = changes
        self.ignored = ignored
    }

    /// - Throws: `400 invalid_request` with a sentence for a body that is not JSON, is neither shape, lacks a
    ///   field the shape requires, or holds an S3 key that is not form-encoded UTF-8.
    init(body: [UInt8]) throws(VariantsError) {
        do {
            self = try WireJSON.decode(Shape.self, from: body).event
        } catch let error as VariantsError {
            throw error
        } catch let error as DecodingError {
            throw VariantsError(.invalidRequest, Self.describe(error))
        } catch {
            throw VariantsError(.invalidRequest, "the storage event is not JSON: \(error)")
        }
    }

    /// The body, read as the shape its top-level keys name.
    private struct Shape: Decodable {
        let event: StorageEvent

        private enum CodingKeys: String, CodingKey {
            case records = "Records"
            case eventType = "event_type"
            /// `{"Event": "s3:TestEvent", …}`, which S3-compatible servers send to check a new target.
            case test = "Event"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch (container.contains(.eventType), container.contains(.records)) {
            case (true, false): event = try FilerEvent(from: decoder).event
            case (false, true): event = try S3EventMessage(from: decoder).event
            case (true, true):
                throw VariantsError(
                    .invalidRequest, "a storage event has event_type (SeaweedFS) or Records (S3), not both")
            case (false, false) where container.contains(.test):
                event = StorageEvent(changes: [], ignored: 1)
            case (false, false):
                throw VariantsError(
                    .invalidRequest,
                    "a storage event is a SeaweedFS filer event (event_type, key, message) or an S3 event "
                        + "message (Records)")
            }
        }
    }

    /// Where in the body a field is, `Records[0].s3.object.key`, for messages.
    static func describe(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "the body" : text
    }

    /// A decoding failure as a sentence naming the field, without Foundation's debugging detail.
    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "\(describe(context.codingPath + [key])): missing"
        case .valueNotFound(_, let context):
            return "\(describe(context.codingPath)): expected a value, got null"
        case .typeMismatch(let type, let context):
            return "\(describe(context.codingPath)): expected \(Self.name(of: type))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "the storage event is not JSON"
        case .dataCorrupted(let context):
            return "\(describe(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the storage event is not of the expected shape"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int64.Type, is UInt64.Type, is Int.Type: "a whole number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
