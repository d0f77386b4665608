internal import CCurl
internal import CCurlShims
import Foundation
import Synchronization
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP exchange as the object-storage client and the callback reporter ask for it: no libcurl type
/// appears here.
struct HTTPExchange: Sendable {
    enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        case put = "PUT"
        case post = "POST"
        case delete = "DELETE"
    }

    /// What is sent: nothing, bytes held in memory, or a file read as it goes.
    enum Upload: Sendable {
        case none
        case bytes([UInt8])
        case file(path: String, size: Int)
    }

    /// Where a successful answer's body goes. Past `limit` bytes the transfer is stopped.
    enum Download: Sendable {
        case memory(limit: Int)
        /// Memory up to `threshold` bytes; a longer body goes on in the file at `path` (created then).
        case spilling(threshold: Int, path: String, limit: Int)
        /// Hashed (SHA-256) as it arrives and never kept, so a body of any length costs no memory.
        case digest
    }

    var method: Method
    var url: String
    /// `Name: value` lines, sent and signed as they are.
    var headers: [String]
    var upload: Upload = .none
    var download: Download = .memory(limit: 1 << 20)
}

/// The server's answer to one exchange.
struct HTTPOutcome: Sendable {
    var status: Int
    /// Header names lower-cased; the last value of a repeated header wins.
    var headers: [String: String]
    /// The body of a 2xx answer downloaded to memory, or the (bounded) error document of any other answer.
    var body: [UInt8]
    /// Bytes of a 2xx body delivered to the download target.
    var received: Int
    /// Whether a `spilling` download went on in its file (`body` is then empty).
    var spilled = false
    /// The SHA-256 of a 2xx body of a `digest` download.
    var sha256: String?
}

/// Why an exchange did not produce an answer.
enum TransferFailure: Error, Sendable {
    /// Connecting, sending or receiving failed, or a timeout passed.
    case network(String)
    /// The server cannot be used as configured, however often it is tried: its TLS certificate does not
    /// verify, the local certificate files cannot be used, or libcurl refuses the URL.
    case misconfigured(String)
    /// The body was longer than the download limit: stopped before its first byte was kept when its declared
    /// length (`declared`) said so, or else when it grew past the limit.
    case overLimit(limit: Int, declared: Int?)
    /// A local file could not be read or written.
    case localFile(String)
}

/// AWS Signature V4, computed by libcurl (`CURLOPT_AWS_SIGV4`) from these.
struct SigV4Signing: Sendable {
    var accessKey: String
    var secretKey: String
    var region: String
}

/// HTTP through libcurl, the only Swift file that calls it. Easy handles are kept in a small pool after
/// use, so their connections are reused by later exchanges; each exchange holds one handle on one thread.
final class CurlTransfer: Sendable {
    /// Seconds to establish a connection, and seconds a transfer may stay under 1 KiB/s before it is cut.
    struct Timeouts: Sendable {
        var connect: Int = 10
        var stalled: Int = 30
    }

    private let timeouts: Timeouts
    private let idle = Mutex<[EasyHandle]>([])
    private static let poolSize = 16
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init(timeouts: Timeouts = Timeouts()) {
        _ = Self.globalInit
        self.timeouts = timeouts
    }

    /// Runs one exchange to its end on the calling thread (blocking), signed when `signing` is given.
    func perform(_ exchange: HTTPExchange, signing: SigV4Signing?) throws(TransferFailure) -> HTTPOutcome {
        guard let handle = idle.withLock({ $0.popLast() }) ?? EasyHandle() else {
            throw .network("libcurl could not create a handle")
        }
        let outcome = try handle.perform(exchange, signing: signing, timeouts: timeouts)
        idle.withLock { handles in
            if handles.count < Self.poolSize { handles.append(handle) }
        }
        return outcome
    }

    /// One libcurl easy handle and the connections it keeps open between exchanges.
    private final class EasyHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer

        init?() {
            guard let raw = curl_easy_init() else { return nil }
            self.raw = raw
        }

        deinit {
            curl_easy_cleanup(raw)
        }

        func perform(_ exchange: HTTPExchange, signing: SigV4Signing?, timeouts: Timeouts)
            throws(TransferFailure) -> HTTPOutcome
        {
            curl_easy_reset(raw)
            let state = try TransferState(handle: raw, exchange: exchange)
            defer { state.close() }
            var list: UnsafeMutablePointer<curl_slist>? = nil
            // libcurl 7.88 signs every header given here, so only headers that are really sent belong here
            // (an empty `Expect:` that removes a header would be signed and break the signature).
            for line in exchange.headers { list = curl_slist_append(list, line) }
            defer { curl_slist_free_all(list) }
            var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            let context = Unmanaged.passUnretained(state).toOpaque()
            let code = errorText.withUnsafeMutableBufferPointer { errorBuffer in
                let options =
                    configure(exchange, state: state, signing: signing, timeouts: timeouts) + [
                        vs_curl_set_pointer(raw, CURLOPT_HTTPHEADER, list),
                        vs_curl_set_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer.baseAddress),
                        vs_curl_set_pointer(raw, CURLOPT_WRITEDATA, context),
                        vs_curl_set_pointer(raw, CURLOPT_HEADERDATA, context),
                        vs_curl_set_pointer(raw, CURLOPT_READDATA, context),
                        vs_curl_set_callback(raw, CURLOPT_WRITEFUNCTION, receiveBody),
                        vs_curl_set_callback(raw, CURLOPT_HEADERFUNCTION, receiveHeader),
                        vs_curl_set_callback(raw, CURLOPT_READFUNCTION, sendBody),
                    ]
                if let refused = options.first(where: { $0 != CURLE_OK }) { return refused }
                return curl_easy_perform(raw)
            }
            if let problem = state.localProblem { throw .localFile(problem) }
            if state.overLimit { throw .overLimit(limit: state.limit, declared: state.declaredLength) }
            guard code == CURLE_OK else {
                let detail = String(
                    decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let summary = String(cString: curl_easy_strerror(code))
                let message = detail.isEmpty ? summary : "\(summary): \(detail)"
                throw Self.misconfiguration.contains(code) ? .misconfigured(message) : .network(message)
            }
            var status = 0
            guard vs_curl_info_long(raw, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK else {
                throw .network("libcurl has no response code")
            }
            return HTTPOutcome(
                status: status, headers: state.headers, body: state.body, received: state.received,
                spilled: state.spilled, sha256: (200..<300).contains(status) ? state.digest?.finish() : nil)
        }

        /// The answers of libcurl that no retry changes. A failed TLS handshake in general
        /// (`CURLE_SSL_CONNECT_ERROR`) is not one: a connection reset during it is.
        private static let misconfiguration = [
            CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_PEER_FAILED_VERIFICATION,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
        ]

        /// Every option of the exchange; libcurl's answer to each is returned, so that none goes unchecked.
        private func configure(
            _ exchange: HTTPExchange, state: TransferState, signing: SigV4Signing?, timeouts: Timeouts
        ) -> [CURLcode] {
            var codes = [
                vs_curl_set_pointer(raw, CURLOPT_URL, exchange.url),
                vs_curl_set_long(raw, CURLOPT_NOSIGNAL, 1),
                vs_curl_set_long(raw, CURLOPT_TCP_KEEPALIVE, 1),
                vs_curl_set_long(raw, CURLOPT_CONNECTTIMEOUT, timeouts.connect),
                vs_curl_set_long(raw, CURLOPT_LOW_SPEED_LIMIT, 1024),
                vs_curl_set_long(raw, CURLOPT_LOW_SPEED_TIME, timeouts.stalled),
                vs_curl_set_pointer(raw, CURLOPT_PROTOCOLS_STR, "http,https"),
                // A key may hold `./` or `../`; the URL is sent and signed exactly as the client encoded it.
                vs_curl_set_long(raw, CURLOPT_PATH_AS_IS, 1),
            ]
            if let signing {
                codes += [
                    vs_curl_set_pointer(raw, CURLOPT_AWS_SIGV4, "aws:amz:\(signing.region):s3"),
                    vs_curl_set_pointer(raw, CURLOPT_USERNAME, signing.accessKey),
                    vs_curl_set_pointer(raw, CURLOPT_PASSWORD, signing.secretKey),
                ]
            }
            switch exchange.method {
            case .get:
                codes.append(vs_curl_set_long(raw, CURLOPT_HTTPGET, 1))
            case .head:
                codes.append(vs_curl_set_long(raw, CURLOPT_NOBODY, 1))
            case .put:
                codes.append(vs_curl_set_long(raw, CURLOPT_UPLOAD, 1))
                codes.append(vs_curl_set_offset(raw, CURLOPT_INFILESIZE_LARGE, state.uploadSize))
            case .post:
                codes.append(vs_curl_set_long(raw, CURLOPT_POST, 1))
                codes.append(vs_curl_set_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, state.uploadSize))
            case .delete:
                codes.append(vs_curl_set_pointer(raw, CURLOPT_CUSTOMREQUEST, "DELETE"))
            }
            return codes
        }
    }
}

/// What the callbacks of one exchange read and fill; reached through libcurl's context pointer.
private final class TransferState {
    let handle: UnsafeMutableRawPointer
    let limit: Int
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    var received: Int = 0
    var overLimit = false
    /// The `Content-Length` of a body refused for it.
    private(set) var declaredLength: Int?
    var localProblem: String?
    private(set) var spilled = false
    /// The spill file, once a `spilling` download has gone past its threshold.
    private var output: Int32 = -1
    /// Where a `spilling` download goes past its threshold.
    private let spill: (threshold: Int, path: String)?
    /// What a `digest` download's body is fed to.
    let digest: SHA256.Incremental?
    private let uploadBytes: [UInt8]
    private var uploadOffset = 0
    private let uploadFile: Int32
    let uploadSize: Int
    /// An error document is kept only to read its code; a longer one is cut.
    private static let errorBodyLimit = 64 << 10

    init(handle: UnsafeMutableRawPointer, exchange: HTTPExchange) throws(TransferFailure) {
        self.handle = handle
        switch exchange.download {
        case .memory(let limit):
            self.limit = limit
            spill = nil
            digest = nil
        case .spilling(let threshold, let path, let limit):
            self.limit = limit
            spill = (threshold, path)
            digest = nil
        case .digest:
            limit = .max
            spill = nil
            digest = SHA256.Incremental()
        }
        switch exchange.upload {
        case .none:
            uploadBytes = []
            uploadFile = -1
            uploadSize = 0
        case .bytes(let bytes):
            uploadBytes = bytes
            uploadFile = -1
            uploadSize = Int(bytes.count)
        case .file(let path, let size):
            uploadBytes = []
            uploadSize = size
            uploadFile = open(path, O_RDONLY | O_CLOEXEC)
            guard uploadFile >= 0 else {
                throw .localFile("\(SystemCallError("open", about: path))")
            }
        }
    }

    func close() {
        if output >= 0 { Glibc.close(output) }
        if uploadFile >= 0 { Glibc.close(uploadFile) }
    }

    /// The answer's status so far; 0 (not a success) when libcurl cannot tell.
    var status: Int {
        var status = 0
        guard vs_curl_info_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK else { return 0 }
        return status
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard (200..<300).contains(status) else {
            body.append(contentsOf: bytes.prefix(max(0, Self.errorBodyLimit - body.count)))
            return true
        }
        if received == 0, let length = headers["content-length"].flatMap(Int.init), length > limit {
            overLimit = true
            declaredLength = length
            return false
        }
        guard received + Int(bytes.count) <= limit else {
            overLimit = true
            return false
        }
        if let digest {
            digest.update(bytes)
            received += bytes.count
            return true
        }
        if output < 0, let spill, body.count + bytes.count > spill.threshold {
            output = open(spill.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard output >= 0 else {
                localProblem = "\(SystemCallError("open", about: spill.path))"
                return false
            }
            spilled = true
            let held = body
            body = []
            guard held.withUnsafeBytes({ write($0) }) else { return false }
        }
        if output >= 0 {
            guard write(bytes) else { return false }
        } else {
            body.append(contentsOf: bytes)
        }
        received += Int(bytes.count)
        return true
    }

    /// Writes all of `bytes` to the output file.
    private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(output, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                localProblem = "\(SystemCallError("write", about: "the download"))"
                return false
            }
            offset += written
        }
        return true
    }

    func receiveHeader(_ line: String) {
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        headers[name] = value
    }

    /// Fills `buffer` with the next upload bytes; 0 at the end, nil when the file cannot be read.
    func send(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if uploadFile >= 0 {
            while true {
                let count = read(uploadFile, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else {
                    localProblem = "\(SystemCallError("read", about: "the upload"))"
                    return nil
                }
                return count
            }
        }
        let count = min(buffer.count, uploadBytes.count - uploadOffset)
        uploadBytes.withUnsafeBytes { source in
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(rebasing: source[uploadOffset..<uploadOffset + count]))
        }
        uploadOffset += count
        return count
    }
}

/// The three libcurl callbacks, as C function pointers that find their exchange through the context.
private let receiveBody: vs_curl_data_callback = { buffer, size, count, context in
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
    return Unmanaged<TransferState>.fromOpaque(context!).takeUnretainedValue().receive(bytes) ? length : 0
}

private let receiveHeader: vs_curl_data_callback = { buffer, size, count, context in
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
    Unmanaged<TransferState>.fromOpaque(context!).takeUnretainedValue().receiveHeader(
        String(decoding: bytes, as: UTF8.self))
    return length
}

private let sendBody: vs_curl_data_callback = { buffer, size, count, context in
    let target = UnsafeMutableRawBufferPointer(start: buffer, count: size * count)
    return Unmanaged<TransferState>.fromOpaque(context!).takeUnretainedValue().send(into: target).map { $0 }
        ?? Int(CURL_READFUNC_ABORT)
}
