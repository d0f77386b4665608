import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// How the client takes failures that no retry can mend.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
        "needs /usr/bin/python3 and /usr/bin/openssl"))
struct CurlTransferTests {
    /// A loopback TLS listener with a self-signed certificate, writing a line to `log` per connection it
    /// accepts and completing no handshake the client refuses.
    private static let listener = """
        import socket, ssl, sys
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server = socket.create_server(('127.0.0.1', 0))
        print(server.getsockname()[1], flush=True)
        while True:
            connection, _ = server.accept()
            with open(sys.argv[3], 'a') as log:
                log.write('connection\\n')
            try:
                context.wrap_socket(connection, server_side=True).close()
            except (ssl.SSLError, OSError):
                connection.close()
        """

    /// A certificate that does not verify is the store's configuration, not an outage: retried, it would
    /// leave `work` holding the job for ever and `serve` answering 503 with `Retry-After` for ever.
    @Test func anUntrustedCertificateFailsAtOnceAsAConfigurationError() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (key, certificate, log) = (
            folder.appendingPathComponent("key.pem").path, folder.appendingPathComponent("cert.pem").path,
            folder.appendingPathComponent("connections.log").path
        )
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days",
            "1",
            "-subj", "/CN=127.0.0.1",
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        let server = try ScriptedServer(Self.listener, arguments: [certificate, key, log])
        defer { server.stop() }
        let configuration = try server.s3Configuration(
            scheme: "https", secret: "a-secret-that-stays-unprinted")
        let error = try #require(throws: S3Error.self) {
            try S3Client(configuration).read(bucket: "bkt", key: "a.jpg", maxBytes: 1 << 20)
        }
        #expect(error.kind == .configuration, "\(error)")
        #expect(error.variantsError.code == .internalError)
        #expect(error.description.contains("s3://bkt/a.jpg"))
        #expect(error.description.contains("certificate"), "\(error)")
        #expect(!error.description.contains("a-secret-that-stays-unprinted"))
        let connections = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(connections.count == 1)
    }
}
