import Foundation
import HeraldCore
import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// Both engines speak HTTP/2 or nothing: a TLS server that does not select
/// `h2` in ALPN (an HTTP/1.1-only server, or one without ALPN) gets no
/// request, and the request fails with `.http2Unavailable`.
///
/// The server is Python's `ssl` with a minimal HTTP/1.1 responder (an
/// independent peer): it answers 200 to any request it reads, and reports
/// every request line it received.
@Suite struct HTTP2RequiredTests {
    /// argv: port file, certificate, key, ALPN protocols (comma-separated, empty for no ALPN).
    /// Serves until 2 s pass without a connection after the first one, or 20 s in all.
    static let server = #"""
        import socket, ssl, sys, time
        port_file, cert, key, alpn = sys.argv[1:5]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        if alpn:
            context.set_alpn_protocols(alpn.split(","))
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(listener.getsockname()[1]))
        import os
        os.rename(port_file + ".tmp", port_file)
        start, last, requests, connections = time.time(), None, [], 0
        listener.settimeout(0.2)
        while time.time() - start < 20 and (last is None or time.time() - last < 2):
            try:
                raw, _ = listener.accept()
            except socket.timeout:
                continue
            connections += 1
            raw.settimeout(3)
            try:
                conn = context.wrap_socket(raw, server_side=True)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                if data:
                    requests.append(data.split(b"\r\n")[0].decode("latin-1"))
                    conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
                conn.close()
            except Exception as error:
                print("connection error:", type(error).__name__)
            last = time.time()
        print("connections=%d" % connections)
        print("requests=%d" % len(requests))
        for line in requests:
            print("request:", line)
        """#

    @Test(arguments: HTTPClientConfiguration.Engine.allCases, ["http/1.1", ""])
    func aServerThatDoesNotSelectH2GetsNoRequest(engine: HTTPClientConfiguration.Engine, alpn: String) async throws {
        let pki = try await Fixtures.pki.get()
        let portFile = pki.directory + "/h1-port-\(engine)-\(alpn.isEmpty ? "none" : "h1")"
        async let served = runTool(
            "/usr/bin/python3", ["-c", Self.server, portFile, pki.serverCertificatePath, pki.serverKeyPath, alpn])
        var port: Int?
        _ = await eventually(timeout: .seconds(60)) {
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
            return port != nil
        }
        let error: HTTPClientError?
        if let port {
            error = try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) {
                do {
                    _ = try await $0.send(
                        HTTPClientRequest(
                            url: "https://127.0.0.1:\(port)/3/device/a", headers: [("authorization", "bearer jwt")],
                            body: Array("{}".utf8)))
                    return nil
                } catch let error as HTTPClientError {
                    return error
                }
            }
        } else {
            error = nil
        }
        let output = try await served.output
        #expect(port != nil, "the Python server started: \(output)")
        #expect(error?.kind == .http2Unavailable, "ALPN '\(alpn)' on \(engine): \(String(describing: error))")
        #expect(error?.isRetryable == false)
        #expect(error?.host == "127.0.0.1:\(port ?? 0)", "names the host: \(String(describing: error))")
        // Only libcurl offers http/1.1 besides h2; to the nghttp2 engine's offer (h2 alone) the server selects nothing.
        let chose = engine == .libcurl && !alpn.isEmpty ? "ALPN selected 'http/1.1'" : "no protocol was selected"
        #expect(error?.message.contains(chose) == true, "says what ALPN chose: \(String(describing: error))")
        #expect(output.contains("connections=1"), "the client did connect: \(output)")
        #expect(output.contains("requests=0"), "no request (no JWT, no body) reached the HTTP/1.1 server: \(output)")
    }
}
