import Foundation

/// One object under `--root` as the walk finds it, and what tells this version of it from any other.
struct SourceVersion: Sendable, Equatable {
    /// Relative to the walked location: the object path.
    var path: String
    /// A folder's file: inode, size, and modification and status-change times to the nanosecond; an object
    /// in storage: ETag, size and Last-Modified. Nil when the version cannot be told (a file written in the
    /// last few milliseconds, a listing without ETag): hashed every time.
    var identity: String?

    /// A file of a folder, from `stat` at the time it is found.
    init(path: String, file: FileIdentity?) {
        self.path = path
        identity = file.flatMap { file in
            guard file.isSettled else { return nil }
            return "file:\(file.device):\(file.inode):\(file.size):"
                + "\(file.modified.tv_sec).\(file.modified.tv_nsec):\(file.changed.tv_sec).\(file.changed.tv_nsec)"
        }
    }

    /// An object of a listing.
    init(path: String, object: S3Object) {
        self.path = path
        identity = object.etag.flatMap { etag in
            object.lastModified.map { "s3:\(etag):\(object.size):\($0)" }
        }
    }
}
