/// One object the storage server says changed: an object-storage bucket and key, and what happened.
///
/// Both names are as the storage server spells them (a SeaweedFS filer path's parts, an S3 key already
/// form-decoded), never empty; whether they name a source of ours is `source(under:)`'s question.
struct StorageChange: Sendable, Equatable {
    let bucket: String
    let key: String
    let kind: Kind
    /// Equal for two deliveries of the same change, so a repeated delivery can be dropped (see
    /// `StorageChange.version(_:_:)`).
    let version: String

    enum Kind: Sendable, Equatable {
        /// Created, overwritten, or the new name of a rename.
        case written
        /// Deleted, or the old name of a rename.
        case removed
    }
}
