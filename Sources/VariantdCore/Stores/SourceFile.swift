import Foundation
public import Variants

/// Reads a stored object's bytes, refusing before reading when it is larger than the limit allows.
///
/// Only a file that is not there is `404 not_found`, which is final; a file the system could not open or
/// read now (`EACCES`, `EIO`, `EMFILE`, …) is `503 store_unavailable`, which a batch or the queue tries again,
/// so a passing fault of the host never records an object as gone.
public enum SourceFile {
    public static func read(_ path: String, maxBytes: Int) throws(VariantsError) -> [UInt8] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw failure(error, reading: path)
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw VariantsError(.invalidRequest, "\(path) is not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else {
            throw VariantsError(
                .payloadTooLarge, "the object is \(size) bytes, over the limit of \(maxBytes)")
        }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw failure(error, reading: path)
        }
    }

    /// `not_found` for a name that leads nowhere, `store_unavailable` with the system's words otherwise.
    private static func failure(_ error: any Error, reading path: String) -> VariantsError {
        let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map {
            $0 as NSError
        }
        let errorNumber = underlying?.domain == NSPOSIXErrorDomain ? underlying.map { Int32($0.code) } : nil
        let missing: Set<CocoaError.Code> = [.fileNoSuchFile, .fileReadNoSuchFile]
        if SystemCallError.isMissing(errorNumber) {
            return VariantsError(.notFound, "no readable object at \(path)")
        }
        if errorNumber == nil, let code = (error as? CocoaError)?.code, missing.contains(code) {
            return VariantsError(.notFound, "no readable object at \(path)")
        }
        let words = errorNumber.map { "\(String(cString: strerror($0))) (errno \($0))" } ?? "\(error)"
        return VariantsError(.storeUnavailable, "\(path) cannot be read now: \(words)")
    }
}
