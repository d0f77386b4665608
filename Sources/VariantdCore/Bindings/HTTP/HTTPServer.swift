internal import CMicroHTTPDShims
import Foundation
import Synchronization
import Variants

/// The one door to libmicrohttpd: every pointer and C call of the HTTP server lives here, and what crosses
/// it are plain `HTTPRequest` and `HTTPResponse` values handed to an `HTTPResponder`.
///
/// `@unchecked Sendable` because the C daemon is only started in `init` and stopped once, by `stop()` or
/// the deinit; between them libmicrohttpd's own threads call in, and the other methods are safe from any
/// thread.
final class HTTPServer: @unchecked Sendable {
    /// How the daemon runs; every limit is chosen by the configuration.
    struct Options: Sendable {
        /// I/O threads; no request ever blocks one, so a few serve many connections.
        var threads: Int
        var connectionLimit: Int
        /// Seconds without I/O before a connection is closed: bounds reading headers and body.
        var connectionTimeout: Int
        /// Body bytes a request may have unless its responder's `admit` says otherwise.
        var maxBodyBytes: Int
        /// Body bytes kept in memory; a longer body goes to a spool file (nameless: unlinked when made).
        var spoolThreshold = 1 << 20
        /// Where spool files are made: `TMPDIR`, else `/tmp`.
        var spoolDirectory = FileManager.default.temporaryDirectory.path
        /// The largest request target and head answered; larger ones get `414` or `431`.
        var headLimits = HeadLimits()
        /// How long a client may take over its head and body.
        var deadlines = ClientDeadlines()
        /// Told of each connection closed over a deadline, on the server's own thread.
        var onSlowClient: @Sendable (ClientDeadlines.Phase) -> Void = { _ in }
    }

    /// Where the server listens, with the port filled in when port 0 was asked for.
    let address: ListenAddress
    private let server: OpaquePointer
    private let descriptor: Int32
    /// What the C callback reaches. The server owns it and lends it to the C daemon unretained: the daemon
    /// is stopped before the server, and with it the context, can go.
    private let context: Context
    private let stopped = Mutex(false)

    init(listen: ListenAddress, options: Options, responder: any HTTPResponder) throws(StartupError) {
        switch listen {
        case .tcp(let host, let port):
            var bound: UInt16 = 0
            descriptor = mh_listen_tcp(host, port, &bound)
            address = .tcp(host: host, port: bound)
        case .unix(let path):
            descriptor = mh_listen_unix(path, 0o600)
            address = listen
        }
        guard descriptor >= 0 else {
            throw StartupError("cannot listen on \(listen): \(SystemCallError("listen"))")
        }
        let context = Context(responder, options: options)
        WriteHealth.shared.watch(.spool, directory: options.spoolDirectory)
        let listening = descriptor
        let started = options.spoolDirectory.withCString { spoolDirectory in
            var settings = mh_server_options(
                listen_fd: listening, threads: UInt32(options.threads),
                connection_limit: UInt32(options.connectionLimit),
                connection_memory_limit: HeadLimits.connectionMemory,
                connection_timeout: UInt32(options.connectionTimeout),
                header_timeout_ms: UInt32(options.deadlines.header / .milliseconds(1)),
                min_body_rate: UInt64(options.deadlines.minBodyRate),
                spool_threshold: options.spoolThreshold,
                spool_directory: spoolDirectory)
            return mh_start(
                &settings, handleHead, handleRequest, handleSlowClient,
                Unmanaged.passUnretained(context).toOpaque())
        }
        guard let started else {
            close(descriptor)
            if case .unix(let path) = listen { unlink(path) }
            throw StartupError("libmicrohttpd did not start on \(listen)")
        }
        server = started
        self.context = context
    }

    /// Requests whose answer is still being worked on.
    var unanswered: Int { context.unanswered.withLock { $0 } }

    /// The cores this process may run on: fewer than the machine's under `taskset` or a CPU set, where
    /// `ProcessInfo.activeProcessorCount` still counts them all.
    static var usableCores: Int { Int(mh_usable_cores()) }

    /// Connections open now, idle keep-alive ones included.
    var connections: Int { Int(mh_connection_count(server)) }

    /// Stops accepting connections (and removes a Unix socket's path); open connections are still served,
    /// each answer from now on closing its connection so that none lingers.
    func stopAccepting() {
        context.closing.withLock { $0 = true }
        mh_quiesce(server)
        if case .unix(let path) = address { unlink(path) }
    }

    /// Stops the daemon, once: call it when `unanswered` is zero; a server never stopped stops as it goes.
    /// While an answer is still owed the daemon is left to the process's exit: libmicrohttpd aborts the
    /// process when stopped with a connection waiting, and its threads keep reaching the context.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        guard unanswered == 0 else {
            _ = Unmanaged.passRetained(context)
            return
        }
        mh_stop(server)
        close(descriptor)
    }

    deinit {
        stop()
    }
}

/// What the C callback reaches through its opaque context pointer.
private final class Context: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let headLimits: HeadLimits
    let onSlowClient: @Sendable (ClientDeadlines.Phase) -> Void
    let unanswered = Mutex(0)
    let closing = Mutex(false)

    init(_ responder: any HTTPResponder, options: HTTPServer.Options) {
        self.responder = responder
        maxBodyBytes = options.maxBodyBytes
        headLimits = options.headLimits
        onSlowClient = options.onSlowClient
    }

    /// What a request's head decides: the server's own limits on the head first, then the responder's.
    func admit(_ head: HTTPRequest) -> BodyAdmission {
        if let refusal = headLimits.refusal(of: head) { return .answer(refusal) }
        return responder.admit(head)
    }

    func respond(_ exchange: Exchange, with response: HTTPResponse) {
        var headers = response.headers
        if closing.withLock({ $0 }) { headers.append(("Connection", "close")) }
        guard response.file != nil || response.spooled != nil else {
            let body = response.range.map { Array(response.body[$0.offset..<$0.offset + $0.length]) }
            exchange.respond(status: response.status, headers: headers, body: body ?? response.body)
            return
        }
        guard var file = Self.open(response) else {
            let failure = HTTPResponse.error(
                VariantsError(.internalError, "the stored rendition cannot be read"))
            exchange.respond(status: failure.status, headers: failure.headers, body: failure.body)
            return
        }
        if let range = response.range {
            file.offset = UInt64(range.offset)
            file.size = UInt64(range.length)
        }
        exchange.respond(status: response.status, headers: headers, body: [], file: file)
    }

    /// A descriptor of the body to send from, which libmicrohttpd closes once sent, and its size: a copy of
    /// the spool file's (which keeps its own), or the stored file opened; nil when neither can be had.
    private static func open(_ response: HTTPResponse) -> FileBody? {
        if let spooled = response.spooled {
            let copy = fcntl(spooled.descriptor.rawValue, F_DUPFD_CLOEXEC, 0)
            return copy >= 0 ? FileBody(descriptor: copy, size: UInt64(spooled.count)) : nil
        }
        guard let path = response.file else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        return FileBody(descriptor: descriptor, size: UInt64(status.st_size))
    }
}

/// An open file sent as a body: `size` bytes from `offset`.
private struct FileBody {
    var descriptor: Int32
    var offset: UInt64 = 0
    var size: UInt64
}

/// Which request an answer is for; the C exchange lives until it is answered.
private struct Exchange: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Answers with `body`, or with an open file that libmicrohttpd reads while sending and then closes.
    func respond(
        status: Int, headers: [(name: String, value: String)], body: [UInt8], file: FileBody? = nil
    ) {
        // Every name and value, each ended by a NUL, in one buffer that the pairs point into.
        var text: [UInt8] = []
        text.reserveCapacity(256)
        var starts: [(name: Int, value: Int)] = []
        starts.reserveCapacity(headers.count)
        for (name, value) in headers {
            let nameStart = text.count
            text.append(contentsOf: name.utf8)
            text.append(0)
            starts.append((nameStart, text.count))
            text.append(contentsOf: value.utf8)
            text.append(0)
        }
        text.withUnsafeBytes { text in
            let base = text.bindMemory(to: CChar.self).baseAddress!
            let pairs = starts.map { mh_header(name: base + $0.name, value: base + $0.value) }
            pairs.withUnsafeBufferPointer { headerBuffer in
                body.withUnsafeBufferPointer { bodyBuffer in
                    var answer = mh_response(
                        status: UInt32(status), headers: headerBuffer.baseAddress,
                        header_count: headerBuffer.count,
                        body: bodyBuffer.baseAddress, body_length: bodyBuffer.count,
                        file_descriptor: file?.descriptor ?? -1, file_offset: file?.offset ?? 0,
                        file_size: file?.size ?? 0)
                    _ = mh_respond(pointer, &answer)
                }
            }
        }
    }

    /// The request's headers (names in lower case) or query arguments; only during the callback. A header
    /// given on several lines is one list, its values joined with commas in order (RFC 9110 §5.3), so that an
    /// `If-None-Match` or `Accept` split over lines is read whole; a repeated query argument keeps its last.
    func values(_ kind: mh_value_kind, lowercasingNames: Bool) -> [String: String] {
        final class Collector {
            var values: [String: String] = [:]
            let lowercasingNames: Bool
            let joinsRepeats: Bool
            init(_ lowercasingNames: Bool, joinsRepeats: Bool) {
                self.lowercasingNames = lowercasingNames
                self.joinsRepeats = joinsRepeats
            }
        }
        let collector = Collector(lowercasingNames, joinsRepeats: kind == MH_HEADER)
        withExtendedLifetime(collector) {
            let visit: mh_value_visitor = { context, name, value in
                guard let context, let name, let value else { return }
                let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                let key = String(cString: name)
                let field = collector.lowercasingNames ? key.lowercased() : key
                let text = String(cString: value)
                let earlier = collector.joinsRepeats ? collector.values[field] : nil
                collector.values[field] = earlier.map { "\($0), \(text)" } ?? text
            }
            mh_exchange_values(pointer, kind, visit, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.values
    }
}

/// The request as Swift sees it; a spooled body's descriptor is duplicated, the copy owned by the value.
private func swiftRequest(_ request: mh_request, of exchange: Exchange) -> HTTPRequest {
    var body = RequestBody.empty
    var unstored = request.body_unstored != 0
    if unstored, request.body_unstored != ENOMEM {
        WriteHealth.shared.record(.spool, failure: request.body_unstored)
    } else if request.body_file >= 0 {
        WriteHealth.shared.record(.spool, failure: nil)
    }
    if request.body_file >= 0 {
        let copy = fcntl(request.body_file, F_DUPFD_CLOEXEC, 0)
        if copy >= 0 {
            body = .spooled(HeldFile(descriptor: FileDescriptor(copy), count: request.body_length))
        } else {
            unstored = true
        }
    } else if let bytes = request.body {
        body = .bytes(Array(UnsafeBufferPointer(start: bytes, count: request.body_length)))
    }
    let method = String(cString: request.method)
    // Only a job (`POST /v1/jobs`) takes query arguments: a render request reads its options from the raw
    // target, as signed, so a hit builds no dictionary of them.
    return HTTPRequest(
        method: method, path: String(cString: request.path),
        target: request.target.map { String(cString: $0) } ?? "",
        headers: exchange.values(MH_HEADER, lowercasingNames: true),
        query: method == "POST" ? exchange.values(MH_QUERY, lowercasingNames: false) : [:],
        body: body, bodyTooLarge: request.body_too_large != 0, bodyUnstored: unstored,
        headSize: request.head_size)
}

/// The C head callback: answers a request from its head, or says how much body it may have.
private let handleHead: mh_head_handler = { contextPointer, exchangePointer, headPointer in
    guard let contextPointer, let exchangePointer, let head = headPointer?.pointee else { return 0 }
    let context = Unmanaged<Context>.fromOpaque(contextPointer).takeUnretainedValue()
    let exchange = Exchange(pointer: exchangePointer)
    switch context.admit(swiftRequest(head, of: exchange)) {
    case .read:
        return UInt64(context.maxBodyBytes)
    case .readUpTo(let limit):
        return UInt64(max(0, limit))
    case .answer(let response):
        context.respond(exchange, with: response)
        return 0
    }
}

/// The C callback: one complete request, answered now or from a task. A request without a body comes here
/// without a head callback, so its head is looked at first.
private let handleRequest: mh_handler = { contextPointer, exchangePointer, requestPointer in
    guard let contextPointer, let exchangePointer, let request = requestPointer?.pointee else { return }
    let context = Unmanaged<Context>.fromOpaque(contextPointer).takeUnretainedValue()
    let exchange = Exchange(pointer: exchangePointer)
    let whole = swiftRequest(request, of: exchange)
    if request.head_unseen != 0, case .answer(let response) = context.admit(whole) {
        context.respond(exchange, with: response)
        return
    }
    switch context.responder.respond(to: whole) {
    case .now(let response):
        context.respond(exchange, with: response)
    case .later(let work):
        context.unanswered.withLock { $0 += 1 }
        Task {
            context.respond(exchange, with: await work())
            context.unanswered.withLock { $0 -= 1 }
        }
    }
}

/// The C callback for a connection closed over a deadline.
private let handleSlowClient: mh_slow_handler = { contextPointer, phase in
    guard let contextPointer else { return }
    let context = Unmanaged<Context>.fromOpaque(contextPointer).takeUnretainedValue()
    context.onSlowClient(phase == MH_SLOW_BODY ? .body : .head)
}
