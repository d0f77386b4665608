import Variants

/// Answers `GET`/`HEAD /v1/info/<bucket>/<path>`: the completion metadata of the stored object as JSON (the
/// type its bytes say, displayed size, alpha, frames, ThumbHash, dominant colour, checksum, colour profile),
/// what `variantd probe` prints for the same bytes, under the render URLs' access rules.
///
/// The object is found as a render finds it, through the render path's own `RenderSources`, so a source
/// whose identity holds is not read or hashed again, whichever endpoint asked last. What the decoder child
/// measured is remembered by the bytes' checksum: asking again, under any name of the same bytes, decodes
/// nothing, and while the source's checksum is remembered the answer costs a `stat` on the I/O thread.
struct InfoService: Sendable {
    static let prefix = "/v1/info/"

    let render: RenderService
    /// Completion metadata by source checksum, for pictures and non-pictures alike (a non-picture is
    /// refused from it without a decode). Each entry is a few hundred bytes.
    private let measured = BoundedMemo<String, CompletionMetadata>(capacity: 4096)
    private let flights = InfoFlights()

    init(render: RenderService) {
        self.render = render
    }

    func respond(to request: HTTPRequest) -> HTTPReply {
        let started = ContinuousClock.now
        var record = RenderRecord(
            method: request.method, outcome: .hit, code: "ok", status: 200, seconds: 0, bytesOut: 0)
        record.event = "info"
        let object: RenderRequest
        let isPublic: Bool
        do throws(AnswerError) {
            (object, isPublic) = try read(request)
            (record.bucket, record.path) = (object.bucket, object.path)
            if let checksum = render.sources.rememberedChecksum(of: object.source),
                let metadata = measured[checksum]
            {
                let response = try answer(metadata, for: object, isPublic: isPublic)
                return .now(logged(response, record, started: started))
            }
        } catch {
            return .now(logged(failure(error, record: &record), record, started: started))
        }
        return .later { [record] in
            var record = record
            let response: HTTPResponse
            do throws(AnswerError) {
                let metadata: CompletionMetadata
                (metadata, record.outcome) = try await measure(object)
                response = try answer(metadata, for: object, isPublic: isPublic)
            } catch {
                response = failure(error, record: &record)
            }
            return logged(response, record, started: started)
        }
    }

    /// Logs the request as an `"event":"info"` line of the access log.
    private func logged(_ response: HTTPResponse, _ record: RenderRecord, started: ContinuousClock.Instant)
        -> HTTPResponse
    {
        var record = record
        record.status = response.status
        record.bytesOut = record.method == "HEAD" || response.status >= 400 ? 0 : response.body.count
        record.seconds = (started.duration(to: .now) / .seconds(1) * 1e6).rounded() / 1e6
        AccessLog.shared.append(record.write)
        return response
    }

    /// The object named, once the request may read it: the bucket's render URLs' credentials, and no option.
    private func read(_ request: HTTPRequest) throws(AnswerError) -> (RenderRequest, isPublic: Bool) {
        let object = try AnswerError.catching { () throws(VariantsError) in
            try request.checkNoNUL()
            let object = try RenderRequest(path: request.path, target: request.target, prefix: Self.prefix)
            switch object.asked {
            case .options(let options) where options.isEmpty: return object
            case .options(let options):
                throw VariantsError(
                    .invalidRequest,
                    "\(Self.prefix) takes no option, only a signature, and got '\(options[0].name)'")
            case .variant, .body:
                throw VariantsError(.invalidRequest, "\(Self.prefix) takes no option, only a signature")
            }
        }
        let isPublic = render.registry.registered(named: object.bucket)?.declaration.isPublic ?? false
        do {
            try render.access.checkURL(request, object, isPublic: isPublic)
        } catch {
            throw .service(error)
        }
        return (object, isPublic)
    }

    /// The metadata of the object's current bytes: remembered by their checksum, or measured by a decoder
    /// child through the render slots' admission, once for all the requests for those bytes meanwhile.
    ///
    /// - Returns: the metadata, and whether it was measured for this request (`miss`), for another one in
    ///   flight (`shared`), or remembered (`hit`).
    private func measure(_ object: RenderRequest) async throws(AnswerError)
        -> (CompletionMetadata, RenderRecord.Outcome)
    {
        let sources = render.sources
        let looked = await Blocking.run { () throws(VariantsError) in
            try sources.checksum(of: object.source)
        }
        let hashed = try AnswerError.catching { () throws(VariantsError) in try looked.get() }
        if let metadata = measured[hashed.checksum] { return (metadata, .hit) }
        let (result, joined) = await flights.measure(hashed.checksum) {
            if let refusal = render.admission.enter() { return .failure(.service(refusal.error)) }
            defer { render.admission.leave() }
            let order = RenditionOrder(ObjectRequest(bucket: object.bucket, path: object.path), bucket: nil)
            let bytes = hashed.bytes ?? sources.bytes(of: object.source, checksum: hashed.checksum)
            let answer = await render.pool.fulfil(order, from: RenditionSource(bytes, listed: []))
            render.metrics.countInfoMeasured()
            render.metrics.setDecoderCrashes(await render.pool.crashes)
            switch answer.outcome {
            case .failure(let error):
                return .failure(AnswerError(error))
            case .success(let metadata):
                measured.remember(metadata, for: metadata.checksumSha256)
                return .success(metadata)
            }
        }
        return (try result.get(), joined ? .shared : .miss)
    }

    /// The metadata under the name asked; a non-picture is refused as a render refuses it.
    private func answer(_ metadata: CompletionMetadata, for object: RenderRequest, isPublic: Bool)
        throws(AnswerError) -> HTTPResponse
    {
        guard metadata.width != nil else {
            throw .pipeline(
                VariantsError(.unsupportedMediaType, "\(metadata.contentType) objects are not pictures"))
        }
        var named = metadata
        (named.bucket, named.path) = (object.bucket, object.path)
        let cache = isPublic ? "public, max-age=\(render.maxAge)" : "private"
        return .json(named, headers: [("Cache-Control", cache)])
    }

    /// The error's answer; a request refused (a client's error) is told from one that failed.
    private func failure(_ error: AnswerError, record: inout RenderRecord) -> HTTPResponse {
        record.code = error.code
        record.outcome = error.statusCode < 500 ? .rejected : .failed
        return .error(error, headers: render.headers(error))
    }
}
