import Foundation
public import Variants

/// Reads a stored object's bytes, refusing before reading when it is larger than the limit allows.
public enum SourceFile {
    public static func read(_ path: String, maxBytes: Int) throws(VariantsError) -> [UInt8] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw VariantsError(.notFound, "no readable object at \(path)")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw VariantsError(.invalidRequest, "\(path) is not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else {
            throw VariantsError(
                .payloadTooLarge, "the object is \(size) bytes, over the limit of \(maxBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VariantsError(.notFound, "\(path) could not be read")
        }
        return [UInt8](data)
    }
}
