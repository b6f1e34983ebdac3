import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldTestSupport
import Testing

/// Answers `<version> conn=<id> stream=<id> <method> <path> <body size> host=<authority> headers=<names>`;
/// `/reset` resets, `/bye` answers then sends GOAWAY, `/late` answers after 200 ms.
struct EchoVersionHandler: HTTP2Handler {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let names = request.headers.map(\.name).joined(separator: ",")
        let text =
            "\(request.httpVersion.rawValue) conn=\(request.connectionID) stream=\(request.streamID) "
            + "\(request.method) \(request.path) \(request.body.count) host=\(request.authority) headers=\(names)"
        let response = HTTP2Response(
            status: 200, headers: [("Content-Type", "text/plain"), ("X-Echo", "yes")], text: text)
        switch request.path {
        case "/reset": responder.reset(.internalError)
        case "/bye":
            responder.respond(response)
            responder.goAway()
        case "/late": responder.respond(response, after: .milliseconds(200))
        default: responder.respond(response)
        }
    }
}

/// HTTP/1.1 beside HTTP/2 on one port, through curl, Python's `http.client`
/// and raw sockets that send what real clients would not.
@Suite struct HTTP1Tests {
    private func server(_ pki: TestPKI?, maxBody: Int = 4 << 20, maxHeader: Int = 16 << 10) throws -> HTTP2Server {
        var configuration = pki.map { Fixtures.tlsServer($0) } ?? HTTP2ServerConfiguration()
        configuration.maxRequestBodyBytes = maxBody
        configuration.maxRequestHeaderBytes = maxHeader
        return try HTTP2Server(configuration: configuration, handler: EchoVersionHandler(), logger: Fixtures.logger)
    }

    @Test func curlHTTP1OverTLSReusesOneConnectionAndHTTP2StillWins() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try server(pki)
        let base = "https://localhost:\(server.port)"
        let (http1, http2) = try await withRunning(server) {
            (
                try await runTool(
                    "/usr/bin/curl",
                    [
                        "-sS", "--http1.1", "--cacert", pki.caCertificatePath, "-w", " http=%{http_version}\\n",
                        base + "/a?x=1",
                        "--next", "-sS", "--http1.1", "--cacert", pki.caCertificatePath, "-w",
                        " http=%{http_version}\\n",
                        "-d", "hello", base + "/b",
                    ]),
                try await runTool(
                    "/usr/bin/curl",
                    [
                        "-sS", "--cacert", pki.caCertificatePath, "-w", " http=%{http_version}", base + "/c",
                    ])
            )
        }
        #expect(http1.status == 0, "curl: \(http1.output)")
        let lines = http1.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "two answers: \(http1.output)")
        guard lines.count == 2 else { return }
        #expect(lines[0].hasPrefix("HTTP/1.1 conn="), "ALPN chose http/1.1: \(lines[0])")
        #expect(
            lines[0].contains("stream=1 GET /a?x=1 0 host=localhost:\(server.port) headers=user-agent,accept"),
            "\(lines[0])")
        #expect(lines[0].hasSuffix(" http=1.1"))
        #expect(lines[1].contains("stream=2 POST /b 5 "), "the second request on the same connection: \(lines[1])")
        #expect(lines[1].contains("content-length,content-type"), "end-to-end fields stay, host does not: \(lines[1])")
        let connections = lines.map { $0.split(separator: " ")[1] }
        #expect(connections[0] == connections[1], "keep-alive: one connection for both: \(lines)")
        #expect(
            http2.output.hasPrefix("HTTP/2 conn="), "curl's default (h2 and http/1.1 offered) gets h2: \(http2.output)")
        #expect(http2.output.hasSuffix(" http=2"))
    }

    @Test func curlHTTP1CleartextAndH2CPriorKnowledgeShareAPort() async throws {
        let server = try server(nil)
        let url = "http://127.0.0.1:\(server.port)/plain"
        let (http1, h2c) = try await withRunning(server) {
            (
                try await runTool("/usr/bin/curl", ["-sS", "--http1.1", url]),
                try await runTool("/usr/bin/curl", ["-sS", "--http2-prior-knowledge", url])
            )
        }
        #expect(
            http1.output.hasPrefix("HTTP/1.1 ") && http1.output.contains("GET /plain 0 host=127.0.0.1"),
            "\(http1.output)")
        #expect(h2c.output.hasPrefix("HTTP/2 ") && h2c.output.contains("GET /plain 0"), "\(h2c.output)")
    }

    @Test func curlWaitsForContinueAndAHugeBodyIsRefused413BeforeItIsSent() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try server(pki, maxBody: 4096)
        let base = "https://localhost:\(server.port)"
        let small = String(repeating: "s", count: 3000)
        let large = pki.directory + "/http1-large-body"
        try Data(repeating: UInt8(ascii: "L"), count: 300_000).write(to: URL(fileURLWithPath: large))
        let (accepted, refused) = try await withRunning(server) {
            (
                try await runTool(
                    "/usr/bin/curl",
                    [
                        "-sS", "--http1.1", "--cacert", pki.caCertificatePath, "-H", "Expect: 100-continue", "-d",
                        small,
                        "-w", " code=%{http_code}", base + "/small",
                    ]),
                try await runTool(
                    "/usr/bin/curl",
                    [
                        "-sS", "-v", "--http1.1", "--cacert", pki.caCertificatePath, "-H", "Expect: 100-continue",
                        "--data-binary", "@" + large, "-w", " code=%{http_code}", base + "/large",
                    ])
            )
        }
        #expect(
            accepted.output.contains("POST /small 3000 ") && accepted.output.hasSuffix("code=200"), "\(accepted.output)"
        )
        #expect(
            !accepted.output.contains("expect"), "Expect is hop-by-hop: the handler does not see it: \(accepted.output)"
        )
        #expect(refused.output.contains("< HTTP/1.1 413 Content Too Large"), "\(refused.output)")
        #expect(refused.output.contains("< connection: close"), "\(refused.output)")
        #expect(refused.output.contains("the body exceeds 4096 bytes"), "\(refused.output)")
        #expect(refused.output.hasSuffix("code=413"), "\(refused.output)")
    }

    /// Python's `http.client` over TLS (no ALPN: the first bytes tell HTTP/1.1),
    /// then raw sockets with requests a strict server refuses.
    static let pythonScript = #"""
        import http.client, json, socket, ssl, sys
        port, ca = int(sys.argv[1]), sys.argv[2]
        context = ssl.create_default_context(cafile=ca)
        results = {}

        connection = http.client.HTTPSConnection("localhost", port, context=context, timeout=10)
        answers = []
        for path, body in [("/one", None), ("/two", b"x" * 10)]:
            connection.request("POST" if body else "GET", path, body=body)
            reply = connection.getresponse()
            answers.append([reply.status, reply.getheader("X-Echo"), reply.read().decode()])
        connection.request("POST", "/chunked", body=iter([b"abc", b"defgh"]), encode_chunked=True,
                           headers={"Transfer-Encoding": "chunked"})
        reply = connection.getresponse()
        answers.append([reply.status, reply.getheader("X-Echo"), reply.read().decode()])
        connection.request("HEAD", "/head")
        reply = connection.getresponse()
        answers.append([reply.status, reply.getheader("Content-Length"), reply.read().decode()])
        connection.request("GET", "/last", headers={"Connection": "close"})
        reply = connection.getresponse()
        answers.append([reply.status, reply.getheader("Connection"), reply.read().decode()])
        results["client"] = answers

        def raw(data, read_all=True):
            sock = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10), server_hostname="localhost")
            sock.sendall(data)
            received = b""
            while True:
                try:
                    chunk = sock.recv(65536)
                except (ConnectionResetError, ssl.SSLError) as error:
                    return received.decode(errors="replace") + "<" + type(error).__name__ + ">"
                if not chunk:
                    return received.decode(errors="replace") + "<closed>"
                received += chunk
                if not read_all:
                    return received.decode(errors="replace")

        host = b"Host: localhost\r\n"
        results["pipelined"] = raw(b"GET /p1 HTTP/1.1\r\n" + host + b"\r\nGET /late HTTP/1.1\r\n" + host
                                   + b"\r\nGET /p3 HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
        results["bad_field"] = raw(b"GET / HTTP/1.1\r\n" + host + b"Bad Name: x\r\n\r\n")
        results["space_before_colon"] = raw(b"GET / HTTP/1.1\r\n" + host + b"Name : x\r\n\r\n")
        results["folded"] = raw(b"GET / HTTP/1.1\r\n" + host + b"A: x\r\n  y\r\n\r\n")
        results["bare_lf"] = raw(b"GET / HTTP/1.1\n" + host + b"\r\n")
        results["no_host"] = raw(b"GET / HTTP/1.1\r\n\r\n")
        results["two_hosts"] = raw(b"GET / HTTP/1.1\r\n" + host + host + b"\r\n")
        results["http10"] = raw(b"GET / HTTP/1.0\r\n\r\n")
        results["gzip"] = raw(b"POST / HTTP/1.1\r\n" + host + b"Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n")
        results["te_and_cl"] = raw(b"POST / HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n")
        results["bad_length"] = raw(b"POST / HTTP/1.1\r\n" + host + b"Content-Length: 3, 4\r\n\r\nabcd")
        results["bad_chunk"] = raw(b"POST / HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n")
        results["expect_other"] = raw(b"POST / HTTP/1.1\r\n" + host + b"Expect: 200-ok\r\nContent-Length: 1\r\n\r\nx")
        results["huge_head"] = raw(b"GET / HTTP/1.1\r\n" + host + b"X-Big: " + b"b" * 3000 + b"\r\n\r\n")
        results["huge_body"] = raw(b"POST /big HTTP/1.1\r\n" + host + b"Content-Length: 200000\r\n\r\n" + b"B" * 200000)
        results["huge_chunked"] = raw(b"POST /big HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n"
                                      + b"1000\r\n" + b"C" * 4096 + b"\r\n1000\r\n" + b"C" * 4096 + b"\r\n0\r\n\r\n")
        results["huge_trailer"] = raw(b"POST /big HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n"
                                      + b"1\r\nC\r\n0\r\nX-Trailer: " + b"t" * 3000 + b"\r\n\r\n")
        results["reset"] = raw(b"GET /reset HTTP/1.1\r\n" + host + b"\r\n")
        results["goaway"] = raw(b"GET /bye HTTP/1.1\r\n" + host + b"\r\nGET /never HTTP/1.1\r\n" + host + b"\r\n")
        results["absolute"] = raw(b"GET https://example.test:9/abs?q HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
        print(json.dumps(results))
        """#

    @Test func pythonHTTPClientAndRawSocketsGetStrictHTTP1Answers() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try server(pki, maxBody: 5000, maxHeader: 2048)
        let run = try await withRunning(server) {
            try await runTool("/usr/bin/python3", ["-c", Self.pythonScript, "\(server.port)", pki.caCertificatePath])
        }
        guard let results = try? JSONValue.parse(Array(run.output.utf8)).objectValue else {
            Issue.record("python: \(run.output)")
            return
        }
        func text(_ key: String) -> String { results[key]?.stringValue ?? "missing \(key)" }

        let client =
            results["client"]?.arrayValue?.map { $0.arrayValue?.map { $0.stringValue ?? "\($0.intValue ?? -1)" } ?? [] }
            ?? []
        #expect(client.count == 5, "five answers: \(client)")
        if client.count == 5 {
            #expect(
                client[0][0] == "200" && client[0][1] == "yes" && client[0][2].hasPrefix("HTTP/1.1 "), "\(client[0])")
            #expect(client[0][2].contains("stream=1 GET /one 0 host=localhost:\(server.port)"), "\(client[0])")
            #expect(client[1][2].contains("stream=2 POST /two 10 "), "\(client[1])")
            #expect(client[2][2].contains("stream=3 POST /chunked 8 "), "a chunked body, decoded: \(client[2])")
            #expect(!client[2][2].contains("transfer-encoding"), "\(client[2])")
            #expect(
                client[3][0] == "200" && client[3][2].isEmpty && client[3][1] != "0",
                "HEAD: a length, no body: \(client[3])")
            #expect(client[4][1] == "close" && client[4][2].contains("stream=5 GET /last"), "\(client[4])")
        }

        let pipelined = text("pipelined")
        let order = ["GET /p1", "GET /late", "GET /p3"].map { pipelined.range(of: $0)?.lowerBound }
        #expect(
            order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(),
            "pipelined requests answered in order, the slow one too: \(pipelined)")
        #expect(pipelined.hasSuffix("<closed>") && pipelined.contains("connection: close"), "\(pipelined)")

        for (key, status) in [
            ("bad_field", "400 Bad Request"), ("space_before_colon", "400 Bad Request"), ("folded", "400 Bad Request"),
            ("bare_lf", "400 Bad Request"), ("no_host", "400 Bad Request"), ("two_hosts", "400 Bad Request"),
            ("http10", "505 HTTP Version Not Supported"), ("gzip", "501 Not Implemented"),
            ("te_and_cl", "400 Bad Request"),
            ("bad_length", "400 Bad Request"), ("bad_chunk", "400 Bad Request"),
            ("expect_other", "417 Expectation Failed"),
            ("huge_head", "431 Request Header Fields Too Large"), ("huge_body", "413 Content Too Large"),
            ("huge_chunked", "413 Content Too Large"), ("huge_trailer", "431 Request Header Fields Too Large"),
        ] {
            let answer = text(key)
            #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(key): \(answer)")
            #expect(
                answer.contains("connection: close\r\n") && answer.hasSuffix("<closed>"),
                "\(key) closes after its answer: \(answer)")
        }
        #expect(text("reset") == "<closed>", "a reset closes the connection without an answer: \(text("reset"))")
        let goAway = text("goaway")
        #expect(goAway.hasPrefix("HTTP/1.1 200 OK\r\n") && goAway.contains("connection: close\r\n"), "\(goAway)")
        #expect(!goAway.contains("/never") && goAway.hasSuffix("<closed>"), "GOAWAY: the answer is the last: \(goAway)")
        #expect(text("absolute").contains("GET /abs?q 0 host=example.test:9"), "absolute form: \(text("absolute"))")
    }
}
