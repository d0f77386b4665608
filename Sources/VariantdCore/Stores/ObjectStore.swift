public import Variants

/// Where the stored source objects live: the one interface the parent reads them through, whatever stands
/// behind it (a folder, an object-storage bucket). Decoder children never read objects themselves.
public protocol ObjectStore: Sendable {
    /// Confirms that `key` names a stored object, so a request for a missing one is refused at the door.
    ///
    /// - Throws: `400 invalid_request` for a key that can never name an object; `404 not_found`.
    func check(_ key: String) throws(VariantsError)

    /// The object's bytes, refused before reading when it is larger than `maxBytes`.
    ///
    /// - Throws: as `check`, and `413 payload_too_large`.
    func read(_ key: String, maxBytes: Int) throws(VariantsError) -> [UInt8]
}
