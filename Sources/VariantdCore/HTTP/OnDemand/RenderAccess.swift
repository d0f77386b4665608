import Foundation

/// Who may render. `POST /v1/render` names any source under the root, so only the storage server in front
/// (the daemon's bearer secret) may send it; a render URL reads one bucket's renditions: anyone's for a public
/// bucket, and for a private one the secret's or a URL signed with the URL key.
struct RenderAccess: Sendable {
    /// Nil on a Unix socket, whose file permissions already decide who may connect.
    let secret: BearerSecret?
    /// Nil when the daemon was started without `--url-key-file`: no signed URL is then accepted.
    let urlKey: URLKey?

    /// A `POST`, before its body is read: the secret, asked for by the check `POST /v1/jobs` makes.
    ///
    /// - Throws: `401 unauthorized`, answered with `WWW-Authenticate: Bearer`.
    func checkPost(_ request: HTTPRequest) throws(ServiceError) {
        try secret?.authorize(request)
    }

    /// A render URL. A signature is not a credential challenge, so a missing or wrong one is a refusal.
    ///
    /// - Throws: `403 forbidden` saying what is missing or wrong.
    func checkURL(_ request: HTTPRequest, _ render: RenderRequest, isPublic: Bool) throws(ServiceError) {
        guard let secret, !isPublic, !secret.admits(request.headers["authorization"]) else { return }
        guard let urlKey else {
            throw ServiceError(
                .forbidden, "without the bearer secret only public buckets' and signed URLs are served")
        }
        try urlKey.check(render.target, expires: render.expires, now: Int(Date().timeIntervalSince1970))
    }
}
