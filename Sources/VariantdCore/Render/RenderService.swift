import Foundation
import Variants

/// Answers `GET`/`HEAD /v1/render/<bucket>/<path>?<options>`: finds the stored rendition of those options for
/// the object's current bytes, or renders it once in a decoder child, and sends it with the headers caches
/// expect.
///
/// A hit costs a `stat` of the source (its checksum is remembered while its identity holds), a listing of
/// its folder in the store and a file sent by libmicrohttpd: no decode and no render slot.
struct RenderService: Sendable {
    let root: StoreRoot
    let store: RenditionStore
    let registry: BucketRegistry
    let admission: Admission
    let metrics: ServerMetrics
    let pool: DecoderPool
    let access: RenderAccess
    /// `Cache-Control: public, max-age=` of public buckets' answers.
    let maxAge: Int
    let headers: @Sendable (VariantsError) -> [(name: String, value: String)]
    private let sources = ChecksumCache()
    private let renditions = ChecksumCache()
    private let flights = RenderFlights()

    init(
        root: StoreRoot, store: RenditionStore, registry: BucketRegistry, admission: Admission,
        metrics: ServerMetrics, pool: DecoderPool, access: RenderAccess, maxAge: Int,
        headers: @escaping @Sendable (VariantsError) -> [(name: String, value: String)]
    ) {
        self.root = root
        self.store = store
        self.registry = registry
        self.admission = admission
        self.metrics = metrics
        self.pool = pool
        self.access = access
        self.maxAge = maxAge
        self.headers = headers
    }

    func respond(to request: HTTPRequest) -> HTTPReply {
        .later { await answer(request) }
    }

    private func answer(_ request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        var record = RenderRecord(
            method: request.method, outcome: .rejected, code: "ok", status: 200, seconds: 0, bytesOut: 0)
        let response: HTTPResponse
        do throws(VariantsError) {
            guard !request.bodyTooLarge else {
                throw VariantsError(.payloadTooLarge, "the request body is over the server's limit")
            }
            let render =
                request.method == "POST"
                ? try RenderRequest(body: request.body, target: request.target)
                : try RenderRequest(path: request.path, target: request.target)
            record.bucket = render.bucket
            record.path = render.path
            let declaration = registry.declaration(named: render.bucket)?.spec
            let isPublic = declaration?.isPublic ?? false
            try access.check(request, render, isPublic: isPublic)
            let (spec, variesWithAccept, declared) = try transform(
                render, declaration: declaration, accept: request.headers["accept"])
            let sourcePath = try root.resolve(render.source)
            guard let checksum = sources.checksum(ofFile: sourcePath) else {
                throw VariantsError(.notFound, "no readable object at '\(render.source)'")
            }
            let specKey = spec.storeKey
            let made: RenderFlights.Made
            if let found = stored(checksum, specKey) {
                made = found
                record.outcome = .hit
            } else {
                let store = store
                let (result, joined) = await flights.render(
                    source: checksum, specKey: specKey, exempt: declared,
                    stored: { store.specKeys(ofSource: checksum) },
                    work: { await renderInChild(sourcePath, render, spec, checksum: checksum) })
                made = try result.get()
                record.outcome = joined ? .shared : .miss
            }
            response = reply(
                made, to: request, isPublic: isPublic, variesWithAccept: variesWithAccept, record: &record)
        } catch {
            record.code = error.code.rawValue
            record.status = error.statusCode
            record.outcome = Self.isRefusal(error.code) ? .rejected : .failed
            response = .error(error, headers: headers(error))
        }
        let (whole, fraction) = started.duration(to: .now).components
        record.seconds = ((Double(whole) + Double(fraction) * 1e-18) * 1e6).rounded() / 1e6
        metrics.record(record)
        EventLog.write(record)
        return response
    }

    /// The options, or the declared variant, as a spec; `declared` exempts it from the per-picture cap.
    private func transform(
        _ render: RenderRequest, declaration: BucketSpec?, accept: String?
    ) throws(VariantsError) -> (spec: VariantSpec, variesWithAccept: Bool, declared: Bool) {
        switch render.asked {
        case .options(let options):
            let transform = try Transform(query: options, accept: accept)
            return (transform.spec, transform.variesWithAccept, false)
        case .json(let json):
            let transform = try Transform(json: json, accept: accept)
            return (transform.spec, transform.variesWithAccept, false)
        case .variant(let name):
            guard let variant = declaration?.variant(named: name) else {
                throw VariantsError(.notFound, "bucket '\(render.bucket)' declares no variant '\(name)'")
            }
            return (variant, false, true)
        }
    }

    private func stored(_ checksum: String, _ specKey: String) -> RenderFlights.Made? {
        guard let relativePath = store.rendition(sourceChecksum: checksum, specKey: specKey),
            let renditionChecksum = renditions.checksum(ofFile: store.path(relativePath))
        else { return nil }
        return RenderFlights.Made(relativePath: relativePath, checksum: renditionChecksum)
    }

    /// Renders one transform in a decoder child, through the same admission as jobs.
    private func renderInChild(
        _ sourcePath: String, _ render: RenderRequest, _ spec: VariantSpec, checksum: String
    ) async -> Result<RenderFlights.Made, VariantsError> {
        // Another process sharing the store may have made it since this request missed.
        if let found = stored(checksum, spec.storeKey) { return .success(found) }
        switch admission.enter() {
        case .full:
            return .failure(VariantsError(.transformBusy, "every render slot and the wait queue are full"))
        case .draining:
            return .failure(VariantsError(.transformBusy, "the server is shutting down"))
        case nil:
            break
        }
        defer { admission.leave() }
        let answer = await pool.process(
            .rendering(
                spec, sourcePath: sourcePath, bucket: render.bucket, path: render.path, storeRoot: store.root))
        metrics.countRenderMade()
        metrics.setDecoderCrashes(await pool.crashes)
        switch answer.outcome {
        case .failure(let error):
            return .failure(error)
        case .success(let metadata):
            guard let rendition = metadata.renditions?[Transform.name] else {
                return .failure(
                    VariantsError(.unsupportedMediaType, "\(metadata.contentType) objects are not pictures"))
            }
            return .success(RenderFlights.Made(relativePath: rendition.key, checksum: rendition.checksumSha256))
        }
    }

    private func reply(
        _ made: RenderFlights.Made, to request: HTTPRequest, isPublic: Bool, variesWithAccept: Bool,
        record: inout RenderRecord
    ) -> HTTPResponse {
        let tag = "\"\(made.checksum)\""
        var headers: [(name: String, value: String)] = [
            ("ETag", tag), ("Cache-Control", isPublic ? "public, max-age=\(maxAge)" : "private"),
        ]
        if variesWithAccept { headers.append(("Vary", "Accept")) }
        if let condition = request.headers["if-none-match"], Self.matches(condition, tag) {
            record.outcome = .notModified
            record.status = 304
            return HTTPResponse(status: 304, headers: headers, body: [])
        }
        let path = store.path(made.relativePath)
        record.bytesOut = Int(FileIdentity(path: path)?.size ?? 0)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", RenditionStore.contentType(of: made.relativePath))] + headers,
            body: [], file: path)
    }

    /// `If-None-Match` by weak comparison, as RFC 9110 asks: `*`, or any listed tag with or without `W/`.
    static func matches(_ condition: String, _ tag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    /// Errors that refuse a request before any render ran, as opposed to a render that failed.
    private static func isRefusal(_ code: VariantsError.Code) -> Bool {
        switch code {
        case .invalidRequest, .invalidTransform, .unauthorized, .forbidden, .notFound, .tooManyVariants,
            .transformBusy:
            true
        default: false
        }
    }
}
