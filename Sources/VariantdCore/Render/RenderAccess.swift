import Foundation

/// Who may read a bucket's renditions: anyone for a public bucket; for a private one the daemon's bearer
/// secret (the storage server in front) or a URL signed with the URL key.
struct RenderAccess: Sendable {
    /// Nil on a Unix socket, whose file permissions already decide who may connect.
    let secret: BearerSecret?
    /// Nil when the daemon was started without `--url-key-file`: no signed URL is then accepted.
    let urlKey: URLKey?

    /// - Throws: `403 forbidden` saying what is missing or wrong.
    func check(_ request: HTTPRequest, _ render: RenderRequest, isPublic: Bool) throws(ServiceError) {
        guard let secret, !(isPublic && render.isAddressedByURL) else { return }
        if secret.admits(request.headers["authorization"]) { return }
        guard let urlKey, render.isAddressedByURL else {
            throw ServiceError(
                .forbidden, "without the bearer secret only public buckets' and signed URLs are served")
        }
        try urlKey.check(render.target, expires: render.expires, now: Int(Date().timeIntervalSince1970))
    }
}
