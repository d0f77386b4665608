import Foundation
import Variants

/// Reads the PNGs a declaration's watermarks name, from the folder the declaration was read from: only a
/// regular file that is inside it once every symbolic link is resolved, and at most
/// `Watermark.maximumFileBytes`. The bytes are checked (not decoded) by the declaration's reader; the
/// decoder child decodes them.
enum WatermarkFiles {
    static func reader(folder: String) -> (String) throws(VariantsError) -> [UInt8] {
        { (file: String) throws(VariantsError) -> [UInt8] in
            let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
            let path = URL(fileURLWithPath: root + "/" + file).standardizedFileURL.resolvingSymlinksInPath()
                .path
            guard path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
                throw VariantsError(.invalidTransform, "a path that leads outside it")
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            guard let attributes else { throw VariantsError(.invalidTransform, "no such file") }
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw VariantsError(.invalidTransform, "not a regular file")
            }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            guard size <= Watermark.maximumFileBytes else {
                throw VariantsError(.invalidTransform, "a file of \(size) bytes")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw VariantsError(.invalidTransform, "a file that cannot be read")
            }
            return [UInt8](data)
        }
    }
}
