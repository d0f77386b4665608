import Foundation
import Variants

/// Answers `GET`/`HEAD /v1/render/<bucket>/<path>?<options>`: finds the stored rendition of those options for
/// the object's current bytes, or renders it once in a decoder child, and sends it with the headers caches
/// expect.
///
/// A hit costs a `stat` of the source (its checksum is remembered while its identity holds), a listing of
/// its folder in the store and a file sent by libmicrohttpd: no decode and no render slot.
struct RenderService: Sendable {
    /// A folder: a source's identity (inode, size, times) is what lets a hit skip hashing it.
    let objects: ObjectFolder
    let renditions: any RenditionCatalog
    let registry: BucketRegistry
    let admission: Admission
    let metrics: ServerMetrics
    let pool: DecoderPool
    let access: RenderAccess
    /// `Cache-Control: public, max-age=` of public buckets' answers.
    let maxAge: Int
    let headers: @Sendable (AnswerError) -> [(name: String, value: String)]
    private let sources = ChecksumCache()
    private let renditionFiles = ChecksumCache()
    private let flights = RenderFlights()

    init(
        objects: ObjectFolder, renditions: any RenditionCatalog, registry: BucketRegistry,
        admission: Admission,
        metrics: ServerMetrics, pool: DecoderPool, access: RenderAccess, maxAge: Int,
        headers: @escaping @Sendable (AnswerError) -> [(name: String, value: String)]
    ) {
        self.objects = objects
        self.renditions = renditions
        self.registry = registry
        self.admission = admission
        self.metrics = metrics
        self.pool = pool
        self.access = access
        self.maxAge = maxAge
        self.headers = headers
    }

    /// A hit whose source and rendition checksums are remembered is answered at once, on the I/O thread
    /// (a `stat` and a folder listing); anything that may hash or render becomes a task.
    func respond(to request: HTTPRequest) -> HTTPReply {
        let started = ContinuousClock.now
        var record = RenderRecord(
            method: request.method, outcome: .rejected, code: "ok", status: 200, seconds: 0, bytesOut: 0)
        let asked: Asked
        do throws(AnswerError) {
            asked = try read(request, record: &record)
        } catch {
            return .now(finish(failure(error, record: &record), record: record, started: started))
        }
        if let checksum = sources.rememberedChecksum(ofFile: asked.sourcePath),
            let found = stored(checksum, RenditionKey.specKey(of: asked.spec), hashing: false)
        {
            record.outcome = .hit
            let response = reply(found, to: request, asked, record: &record)
            return .now(finish(response, record: record, started: started))
        }
        return .later { [record] in
            var record = record
            let response: HTTPResponse
            do throws(AnswerError) {
                response = try await answer(request, asked, record: &record)
            } catch {
                response = failure(error, record: &record)
            }
            return finish(response, record: record, started: started)
        }
    }

    /// A request checked at the edge: credentials, options, and the object's real path.
    private struct Asked: Sendable {
        var render: RenderRequest
        var spec: VariantSpec
        var variesWithAccept: Bool
        /// A declared variant: counted by the per-picture cap, never refused by it.
        var declared: Bool
        var isPublic: Bool
        var sourcePath: String
    }

    private func read(_ request: HTTPRequest, record: inout RenderRecord) throws(AnswerError) -> Asked {
        try request.checkBodyKept(tooLarge: "the request body is over the server's limit")
        let render = try AnswerError.pipeline { () throws(VariantsError) in
            request.method == "POST"
                ? try RenderRequest(body: try request.body.bytes(), target: request.target)
                : try RenderRequest(path: request.path, target: request.target)
        }
        record.bucket = render.bucket
        record.path = render.path
        let declaration = registry.bucket(named: render.bucket)
        let isPublic = declaration?.isPublic ?? false
        do {
            try access.check(request, render, isPublic: isPublic)
        } catch {
            throw .service(error)
        }
        return try AnswerError.pipeline { () throws(VariantsError) in
            let (spec, variesWithAccept, declared) = try transform(
                render, declaration: declaration, accept: request.headers["accept"])
            return Asked(
                render: render, spec: spec, variesWithAccept: variesWithAccept, declared: declared,
                isPublic: isPublic, sourcePath: try objects.resolve(render.source))
        }
    }

    /// The slow path: the source hashed when its identity changed, the rendition found or rendered once.
    private func answer(_ request: HTTPRequest, _ asked: Asked, record: inout RenderRecord)
        async throws(AnswerError)
        -> HTTPResponse
    {
        guard let checksum = sources.checksum(ofFile: asked.sourcePath) else {
            throw .pipeline(VariantsError(.notFound, "no readable object at '\(asked.render.source)'"))
        }
        let specKey = RenditionKey.specKey(of: asked.spec)
        let made: RenderFlights.Made
        if let found = stored(checksum, specKey, hashing: true) {
            made = found
            record.outcome = .hit
        } else {
            let renditions = renditions
            let (result, joined) = await flights.render(
                source: checksum, specKey: specKey, exempt: asked.declared,
                stored: { renditions.specKeys(ofSource: checksum) },
                work: { await renderInChild(asked.render, asked.spec, checksum: checksum) })
            made = try result.get()
            record.outcome = joined ? .shared : .miss
        }
        return reply(made, to: request, asked, record: &record)
    }

    private func failure(_ error: AnswerError, record: inout RenderRecord) -> HTTPResponse {
        record.code = error.code
        record.status = error.statusCode
        record.outcome = Self.isRefusal(error) ? .rejected : .failed
        return .error(error, headers: headers(error))
    }

    /// Logs and counts the request.
    private func finish(_ response: HTTPResponse, record: RenderRecord, started: ContinuousClock.Instant)
        -> HTTPResponse
    {
        var record = record
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
        case .body(let body):
            guard let transform = try Transform.inline(member: "transforms", of: body, accept: accept) else {
                throw VariantsError(.invalidRequest, "expected transforms")
            }
            return (transform.spec, transform.variesWithAccept, false)
        case .variant(let name):
            guard let variant = declaration?.variant(named: name) else {
                throw VariantsError(.notFound, "bucket '\(render.bucket)' declares no variant '\(name)'")
            }
            return (variant, false, true)
        }
    }

    /// The stored rendition, if any; without `hashing` only when a file's checksum is remembered.
    private func stored(_ checksum: String, _ specKey: String, hashing: Bool) -> RenderFlights.Made? {
        guard let key = renditions.key(sourceChecksum: checksum, specKey: specKey) else { return nil }
        return made(key, hashing: hashing)
    }

    private func made(_ key: String, hashing: Bool) -> RenderFlights.Made? {
        switch renditions.body(of: key) {
        case .file(let path):
            let checksum =
                hashing
                ? renditionFiles.checksum(ofFile: path) : renditionFiles.rememberedChecksum(ofFile: path)
            return checksum.map { RenderFlights.Made(key: key, checksum: $0, body: .file(path: path)) }
        case .bytes(let bytes):
            return RenderFlights.Made(key: key, checksum: SHA256.hex(bytes), body: .bytes(bytes))
        case nil:
            return nil
        }
    }

    /// Renders one transform in a decoder child, through the same admission as jobs.
    private func renderInChild(_ render: RenderRequest, _ spec: VariantSpec, checksum: String) async
        -> Result<RenderFlights.Made, AnswerError>
    {
        // Another process sharing the store may have made it since this request missed.
        if let found = stored(checksum, RenditionKey.specKey(of: spec), hashing: true) {
            return .success(found)
        }
        if let refusal = admission.enter() { return .failure(.service(refusal.error)) }
        defer { admission.leave() }
        let answer = await pool.process(
            ObjectRequest(bucket: render.bucket, path: render.path), source: render.source,
            bucket: .rendering(spec, in: render.bucket))
        metrics.countRenderMade()
        metrics.setDecoderCrashes(await pool.crashes)
        switch answer.outcome {
        case .failure(let error):
            return .failure(AnswerError(error))
        case .success(let metadata):
            guard let rendition = metadata.renditions?[Transform.name] else {
                return .failure(
                    .pipeline(
                        VariantsError(
                            .unsupportedMediaType, "\(metadata.contentType) objects are not pictures")))
            }
            guard let made = made(rendition.key, hashing: true) else {
                return .failure(
                    .pipeline(VariantsError(.internalError, "the rendition was not found in the store")))
            }
            return .success(made)
        }
    }

    private func reply(
        _ made: RenderFlights.Made, to request: HTTPRequest, _ asked: Asked, record: inout RenderRecord
    ) -> HTTPResponse {
        let tag = "\"\(made.checksum)\""
        var headers: [(name: String, value: String)] = [
            ("ETag", tag), ("Cache-Control", asked.isPublic ? "public, max-age=\(maxAge)" : "private"),
        ]
        if asked.variesWithAccept { headers.append(("Vary", "Accept")) }
        if let condition = request.headers["if-none-match"], Self.matches(condition, tag) {
            record.outcome = .notModified
            record.status = 304
            return HTTPResponse(status: 304, headers: headers, body: [])
        }
        headers.insert(("Content-Type", RenditionKey.contentType(of: made.key)), at: 0)
        switch made.body {
        case .file(let path):
            record.bytesOut = Int(FileIdentity(path: path)?.size ?? 0)
            return HTTPResponse(status: 200, headers: headers, body: [], file: path)
        case .bytes(let bytes):
            record.bytesOut = bytes.count
            return HTTPResponse(status: 200, headers: headers, body: bytes)
        }
    }

    /// `If-None-Match` by weak comparison, as RFC 9110 asks: `*`, or any listed tag with or without `W/`.
    static func matches(_ condition: String, _ tag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    /// Errors that refuse a request before any render ran, as opposed to a render that failed.
    private static func isRefusal(_ error: AnswerError) -> Bool {
        switch error {
        case .service: true
        case .pipeline(let error):
            switch error.code {
            case .invalidRequest, .invalidTransform, .notFound, .tooManyVariants: true
            default: false
            }
        }
    }
}
