import Foundation
import Variants

/// Answers `GET`/`HEAD /v1/render/<bucket>/<path>?<options>`: finds the stored rendition of those options for
/// the object's current bytes, or renders it once in a decoder child, and sends it with the headers caches
/// expect.
///
/// With folders, a hit costs a `stat` of the source (its checksum is remembered while its identity holds)
/// and a file libmicrohttpd sends from a descriptor held open (`OpenRenditions`), all on the I/O thread;
/// with object storage the same while the source's identity is trusted (`BucketSources`) and the rendition
/// is in the local `RenditionCache`, and otherwise a HEAD of the source and a GET of the rendition, off it.
/// Never a decode or a render slot. A miss hands the pool what it found out (the source's checksum, its
/// bytes or the file held open, the renditions listed), so the source is read and hashed once and the spec
/// key computed once.
struct RenderService: Sendable {
    let sources: any RenderSources
    let renditions: any RenditionCatalog
    let registry: BucketRegistry
    let admission: Admission
    let metrics: ServerMetrics
    let pool: PipelinePool
    let access: RenderAccess
    /// `Cache-Control: public, max-age=` of public buckets' answers.
    let maxAge: Int
    /// What is stored for each source, as this daemon knows it.
    let index: RenditionIndex
    /// Local copies of renditions kept in object storage; nil when they are in a folder.
    let cache: RenditionCache?
    /// Counts transforms against accounts' monthly allowances; nil counts nothing.
    let meter: TransformMeter?
    /// Bounds the bytes of transforms' renditions; nil bounds nothing.
    let budget: OnDemandBudget?
    let headers: @Sendable (AnswerError) -> [(name: String, value: String)]
    private let transforms = TransformMemo()
    /// Requests already read, by target: a hit's URL is asked again and again, and reading it was a tenth of
    /// the hit. Only targets of at most `rememberedTargetBytes` are kept, so the memo stays within a few
    /// megabytes.
    private let readTargets = BoundedMemo<String, RenderRequest>(capacity: 4096)
    static let rememberedTargetBytes = 1024
    private let openRenditions = OpenRenditions()
    private let flights = RenderFlights()

    init(
        sources: any RenderSources, renditions: any RenditionCatalog, registry: BucketRegistry,
        admission: Admission,
        metrics: ServerMetrics, pool: PipelinePool, access: RenderAccess, maxAge: Int,
        index: RenditionIndex = RenditionIndex(), cache: RenditionCache? = nil, meter: TransformMeter? = nil,
        budget: OnDemandBudget? = nil,
        headers: @escaping @Sendable (AnswerError) -> [(name: String, value: String)]
    ) {
        self.index = index
        self.meter = meter
        self.budget = budget
        self.sources = sources
        self.renditions = renditions
        self.registry = registry
        self.admission = admission
        self.metrics = metrics
        self.pool = pool
        self.access = access
        self.maxAge = maxAge
        self.cache = cache
        self.headers = headers
    }

    /// A hit whose source checksum, rendition key and rendition checksum are remembered is answered at once,
    /// on the I/O thread; anything that may hash, wait on object storage or render becomes a task.
    func respond(to request: HTTPRequest) -> HTTPReply {
        let started = ContinuousClock.now
        metrics.countRenderArrived()
        var record = RenderRecord(
            method: request.method, outcome: .rejected, code: "ok", status: 200, seconds: 0, bytesOut: 0)
        let checked: CheckedRequest
        do throws(AnswerError) {
            checked = try read(request, record: &record)
        } catch {
            return .now(finish(failure(error, record: &record), record: record, started: started))
        }
        if isCounted(checked), let (source, found) = remembered(checked, now: started) {
            record.outcome = .hit
            count(found, ofSource: source, checked)
            let response = reply(found, to: request, checked, record: &record)
            return .now(finish(response, record: record, started: started))
        }
        return .later { [record] in
            var record = record
            let response: HTTPResponse
            do throws(AnswerError) {
                response = try await answer(request, checked, record: &record)
            } catch {
                response = failure(error, record: &record)
            }
            return finish(response, record: record, started: started)
        }
    }

    /// A request checked at the edge: credentials, options, and the object's real path.
    private struct CheckedRequest: Sendable {
        var render: RenderRequest
        /// The rendition asked for, with its spec key.
        var output: RenditionOutput
        /// The answer's `Vary`: the request headers the rendition was chosen by.
        var vary: String?
        /// A transform asked for by URL, whose answer sends `Accept-CH` for the page's later requests.
        var offersHints: Bool
        /// A declared variant: counted by the per-picture cap, never refused by it.
        var isDeclared: Bool
        /// The bucket's declared variants, which shape the render of a spec it declares.
        var declared: [RenditionOutput]
        var isPublic: Bool
        /// The transform as it counts against its account's allowance; nil for a declared variant.
        var metered: TransformMeter.Transform?
        var specKey: String { output.specKey }
    }

    /// Whether the request needs no count before it is answered: a declared variant, or a transform this
    /// daemon knows counted this month.
    private func isCounted(_ checked: CheckedRequest) -> Bool {
        guard let meter, let metered = checked.metered else { return true }
        return meter.isCounted(metered)
    }

    private func read(_ request: HTTPRequest, record: inout RenderRecord) throws(AnswerError)
        -> CheckedRequest
    {
        let isPost = request.method == "POST"
        do {
            if isPost { try access.checkPost(request) }
        } catch {
            throw .service(error)
        }
        try request.checkBodyKept(tooLarge: "the request body is over the server's limit")
        let render = try AnswerError.catching { () throws(VariantsError) in
            try request.checkNoNUL()
            return isPost
                ? try RenderRequest(body: try request.body.bytes(), target: request.target)
                : try readTarget(request)
        }
        record.bucket = render.bucket
        record.path = render.path
        let bucket = registry.registered(named: render.bucket)
        let isPublic = bucket?.declaration.isPublic ?? false
        do {
            if !isPost { try access.checkURL(request, render, isPublic: isPublic) }
        } catch {
            throw .service(error)
        }
        return try AnswerError.catching { () throws(VariantsError) in
            let (output, vary, isDeclared) = try transform(render, bucket: bucket, headers: request.headers)
            var offersHints = false
            if case .options = render.asked { offersHints = true }
            let metered =
                isDeclared
                ? nil
                : TransformMeter.Transform(
                    account: bucket?.declaration.account ?? render.bucket, bucket: render.bucket,
                    object: render.path, specKey: output.specKey)
            return CheckedRequest(
                render: render, output: output, vary: vary, offersHints: offersHints,
                isDeclared: isDeclared,
                declared: bucket?.outputs ?? [], isPublic: isPublic, metered: metered)
        }
    }

    /// The render request a `GET` or `HEAD` target names, remembered when read without error.
    private func readTarget(_ request: HTTPRequest) throws(VariantsError) -> RenderRequest {
        if let remembered = readTargets[request.target] { return remembered }
        let render = try RenderRequest(path: request.path, target: request.target)
        if request.target.utf8.count <= Self.rememberedTargetBytes {
            readTargets.remember(render, for: request.target)
        }
        return render
    }

    /// A hit that waits on nothing but the source's `stat` (or nothing, while an object's identity is
    /// trusted): the source's checksum and the rendition's key remembered, the source still the file it was,
    /// and the rendition held open (or opened, its identity read from the descriptor it is then sent from,
    /// and its checksum remembered for that identity, or kept by the cache with the copy).
    ///
    /// - Returns: the source's checksum and the rendition.
    private func remembered(_ checked: CheckedRequest, now: ContinuousClock.Instant)
        -> (String, StoredRendition)?
    {
        guard let checksum = sources.rememberedChecksum(of: checked.render.source),
            let known = index.rendition(ofSource: checksum, specKey: checked.specKey)
        else { return nil }
        let key = known.key
        let path: String
        var copy: RenditionCache.Entry?
        if let file = renditions.file(of: key) {
            path = file
        } else if let cached = cache?.entry(key) {
            (path, copy) = (cached.path, cached)
        } else {
            return nil
        }
        let entry: OpenRenditions.Entry
        if let open = openRenditions.entry(at: path, now: now) {
            entry = open
        } else {
            guard let descriptor = try? FileDescriptor.open(path, .reading) else { return nil }
            guard let identity = FileIdentity(descriptor: descriptor),
                let etag = known.identity == identity
                    ? known.checksum : (copy?.identity == identity ? copy?.checksum : nil)
            else {
                descriptor.close()
                return nil
            }
            let file = HeldFile(descriptor: descriptor, count: Int(identity.size))
            entry = OpenRenditions.Entry(file: file, identity: identity, checksum: etag, checked: now)
            openRenditions.keep(entry, at: path)
        }
        return (
            checksum,
            StoredRendition(
                key: key, checksum: entry.checksum, size: entry.file.count, body: .spooled(entry.file))
        )
    }

    /// Counts a transform's rendition, sent or made, against the on-demand budget.
    private func count(_ rendition: StoredRendition, ofSource checksum: String, _ checked: CheckedRequest) {
        guard !checked.isDeclared, let budget else { return }
        budget.record(ofSource: checksum, specKey: checked.specKey, key: rendition.key, size: rendition.size)
    }

    /// The slow path: the source hashed when its identity changed, its renditions listed once, and the
    /// rendition found or rendered once.
    private func answer(_ request: HTTPRequest, _ checked: CheckedRequest, record: inout RenderRecord)
        async throws(AnswerError)
        -> HTTPResponse
    {
        let generation = flights.generation
        let looked = await Blocking.run { () throws(VariantsError) -> (HashedSource, Lookup) in
            let source = try sources.checksum(of: checked.render.source)
            return (source, try lookUp(source.checksum, checked.specKey))
        }
        let (source, lookup) = try AnswerError.catching { () throws(VariantsError) in try looked.get() }
        // Counted once the object is known to exist, whether the rendition is stored or not.
        if let meter, let metered = checked.metered { try await meter.count(metered) }
        let checksum = source.checksum
        let stored: StoredRendition
        switch lookup {
        case .found(let found):
            stored = found
            record.outcome = .hit
        case .missing(let listed):
            let renditions = renditions
            let (result, joined) = await flights.render(
                source: checksum, specKey: checked.specKey, exempt: checked.isDeclared,
                listed: (listed, generation),
                stored: { () throws(VariantsError) in Set(try renditions.listing(ofSource: checksum).keys) },
                work: { await renderInChild(checked, source: source, listed: listed) })
            stored = try result.get()
            record.outcome = joined ? .shared : .miss
        }
        count(stored, ofSource: checksum, checked)
        return reply(stored, to: request, checked, record: &record)
    }

    /// A rendition in the store, or the spec keys stored beside it when it is not there.
    private enum Lookup: Sendable {
        case found(StoredRendition)
        case missing(Set<String>)
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
        record.seconds = (started.duration(to: .now) / .seconds(1) * 1e6).rounded() / 1e6
        metrics.record(record)
        AccessLog.shared.append(record.write)
        return response
    }

    /// The rendition the options, or the declared variant, ask for; `isDeclared` exempts it from the
    /// per-picture cap. Options the bucket's `TransformScope` does not take are refused here, before the
    /// source is looked at.
    private func transform(
        _ render: RenderRequest, bucket: RegisteredBucket?, headers: [String: String]
    ) throws(VariantsError) -> (output: RenditionOutput, vary: String?, isDeclared: Bool) {
        let scope = bucket?.declaration.transforms ?? .any
        switch render.asked {
        case .options(let options):
            try scope.admitOptions(bucket: render.bucket)
            let (output, vary) = try transforms.output(
                options, headers: headers, servedWidths: scope.widths,
                watermarks: bucket?.declaration.watermarks ?? [])
            try scope.admit(output.spec, bucket: render.bucket)
            return (output, vary, false)
        case .body(let body):
            try scope.admitOptions(bucket: render.bucket)
            guard
                let transform = try Transform.inline(
                    member: "transforms", of: body, accept: headers["accept"],
                    watermarks: bucket?.declaration.watermarks ?? [])
            else {
                throw VariantsError(.invalidRequest, "expected transforms")
            }
            try scope.admit(transform.spec, bucket: render.bucket)
            return (
                RenditionOutput(transform.spec, wanted: true), transform.variesWithAccept ? "Accept" : nil,
                false
            )
        case .variant(let name):
            guard let output = bucket?.output(named: name) else {
                throw VariantsError(.notFound, "bucket '\(render.bucket)' declares no variant '\(name)'")
            }
            return (output, nil, true)
        }
    }

    /// The stored rendition under the key the index knows, or else the one the store lists; the listing, a
    /// source's one per miss, is learnt by the index and counts its transforms for the cap. Blocks.
    private func lookUp(_ checksum: String, _ specKey: String) throws(VariantsError) -> Lookup {
        if let known = index.rendition(ofSource: checksum, specKey: specKey) {
            if let stored = try stored(known.key) { return .found(stored) }
            index.remove(known.key)
        }
        let listing = try renditions.listing(ofSource: checksum)
        for key in listing.values { index.remember(key) }
        if let key = listing[specKey], let stored = try stored(key) { return .found(stored) }
        return .missing(Set(listing.keys))
    }

    /// The rendition under `key` ready to send, remembered for the next hit; nil when it is not there. From
    /// the cache's copy when it keeps one; a rendition downloaded is kept there. Blocks.
    private func stored(_ key: String) throws(VariantsError) -> StoredRendition? {
        if let copy = cache?.open(key) {
            index.remember(key)
            return copy
        }
        let stored: StoredRendition
        switch try renditions.body(of: key) {
        case .file(let path):
            guard let checksum = index.checksum(of: key, file: path),
                let identity = FileIdentity(path: path)
            else { return nil }
            stored = StoredRendition(
                key: key, checksum: checksum, size: Int(identity.size), body: .file(path: path))
        case .bytes(let bytes):
            stored = StoredRendition(
                key: key, checksum: SHA256.hex(bytes), size: bytes.count, body: .bytes(bytes))
        case .spooled(let file):
            stored = StoredRendition(
                key: key, checksum: try file.sha256(), size: file.count, body: .spooled(file))
        case nil:
            return nil
        }
        cache?.keep(stored)
        index.remember(key)
        return stored
    }

    /// Renders one transform in a decoder child, through the same admission as jobs, from what finding the
    /// source's checksum gave (its bytes, or the file held open) and with the renditions `listed` for it,
    /// and answers with the bytes the child made. Another process that makes the same rendition meanwhile
    /// writes the same bytes under the same key.
    private func renderInChild(_ checked: CheckedRequest, source: HashedSource, listed: Set<String>) async
        -> Result<StoredRendition, AnswerError>
    {
        if let refusal = admission.enter() { return .failure(.service(refusal.error)) }
        defer { admission.leave() }
        let render = checked.render
        let order = RenditionOrder(
            ObjectRequest(bucket: render.bucket, path: render.path), rendering: checked.output,
            among: checked.declared)
        let bytes = source.bytes ?? sources.bytes(of: render.source, checksum: source.checksum)
        let answer = await pool.fulfil(order, from: RenditionSource(bytes, listed: listed))
        metrics.countRenderMade()
        metrics.setDecoderCrashes(await pool.crashes)
        switch answer.outcome {
        case .failure(let error):
            return .failure(AnswerError(error))
        case .success(let metadata):
            // The one rendition wanted, under its declared name or `Transform.name`.
            guard let rendition = metadata.renditions?.values.first else {
                return .failure(
                    .pipeline(
                        VariantsError(
                            .unsupportedMediaType, "\(metadata.contentType) objects are not pictures")))
            }
            guard let file = answer.files.first(where: { $0.key == rendition.key }) else {
                return .failure(
                    .pipeline(VariantsError(.internalError, "the decoder answered no rendition")))
            }
            let path = renditions.file(of: rendition.key)
            index.remember(
                rendition.key, checksum: path == nil ? nil : rendition.checksumSha256,
                identity: path.flatMap { FileIdentity(path: $0) })
            let made = StoredRendition(
                key: rendition.key, checksum: rendition.checksumSha256, size: file.bytes.count,
                body: .bytes(file.bytes))
            if let cache { _ = await Blocking.run { cache.keep(made) } }
            return .success(made)
        }
    }

    private func reply(
        _ rendition: StoredRendition, to request: HTTPRequest, _ checked: CheckedRequest,
        record: inout RenderRecord
    ) -> HTTPResponse {
        let tag = "\"\(rendition.checksum)\""
        var headers: [(name: String, value: String)] = [
            ("ETag", tag), ("Cache-Control", checked.isPublic ? "public, max-age=\(maxAge)" : "private"),
        ]
        if let vary = checked.vary { headers.append(("Vary", vary)) }
        if checked.offersHints { headers.append(("Accept-CH", ClientHints.accepted)) }
        // A 304 is given the rendition too: libmicrohttpd never sends a 304's body but states its length,
        // which must be the 200's (RFC 9110 §8.6), not the 0 of an empty one.
        var status = 200
        if let condition = request.headers["if-none-match"], Self.matches(condition, tag) {
            record.outcome = .notModified
            record.status = 304
            status = 304
        } else {
            headers.insert(("Content-Type", RenditionKey.contentType(of: rendition.key)), at: 0)
            record.bytesOut = rendition.size
        }
        let whole: HTTPResponse
        switch rendition.body {
        case .file(let path):
            whole = HTTPResponse(status: status, headers: headers, body: [], file: path)
        case .bytes(let bytes):
            whole = HTTPResponse(status: status, headers: headers, body: bytes)
        case .spooled(let file):
            whole = HTTPResponse(status: status, headers: headers, body: [], spooled: file)
        }
        let range = status == 200 ? ByteRange.answer(to: request, tag: tag, size: rendition.size) : .whole
        let response = whole.answering(range, size: rendition.size)
        record.status = response.status
        if let part = response.range { record.bytesOut = part.length }
        if range == .unsatisfiable {
            record.outcome = .rejected
            record.code = ServiceError.Code.rangeNotSatisfiable.rawValue
            record.bytesOut = 0
        }
        return response
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
            case .invalidRequest, .invalidTransform, .notFound, .tooManyVariants, .transformsDeclaredOnly,
                .widthNotDeclared:
                true
            default: false
            }
        }
    }
}
