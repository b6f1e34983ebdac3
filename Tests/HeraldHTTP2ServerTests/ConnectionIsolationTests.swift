import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldSystem
import HeraldTestSupport
import Testing

/// One connection's end, however it ends, is that connection's alone: a
/// long-lived client keeps every request while other clients come and go badly.
@Suite struct ConnectionIsolationTests {
    /// Connects many times to the port in argv[1] and leaves in every bad way
    /// a client can: mid-handshake, RST after the handshake, without
    /// close_notify, after garbage, after a reset stream, after a request.
    static let churnScript = #"""
        import socket, ssl, struct, sys
        port, ca, rounds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
        context = ssl.create_default_context(cafile=ca)
        context.set_alpn_protocols(["h2"])

        def tcp():
            return socket.create_connection(("127.0.0.1", port), timeout=5)

        def tls():
            return context.wrap_socket(tcp(), server_hostname="localhost")

        def rst(sock):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()

        def frame(kind, flags, stream, payload=b""):
            return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

        preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0)
        # HEADERS for POST https://localhost/x (HPACK: indexed :method POST, :scheme https, literal :path and :authority).
        headers = bytes([0x83, 0x87, 0x04, 2]) + b"/x" + bytes([0x01, 9]) + b"localhost"
        done = 0
        for round in range(rounds):
            for step in range(6):
                try:
                    if step == 0:    # half a ClientHello, then FIN
                        s = tcp(); s.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"); s.close()
                    elif step == 1:  # half a ClientHello, then RST
                        s = tcp(); s.sendall(b"\x16\x03\x01\x02\x00\x01"); rst(s)
                    elif step == 2:  # handshake, then RST with no close_notify
                        s = tls(); s.sendall(preface); rst(s)
                    elif step == 3:  # handshake, request, then close without close_notify
                        s = tls(); s.sendall(preface + frame(1, 0x5, 1, headers)); s.recv(100); s.close()  # Python closes TLS without close_notify
                    elif step == 4:  # handshake, then bytes that are not HTTP/2
                        s = tls(); s.sendall(b"\x00" * 64 + b"garbage"); s.recv(100); s.close()
                    else:            # handshake, request, RST_STREAM (CANCEL), then RST
                        s = tls(); s.sendall(preface + frame(1, 0x4, 1, headers) + frame(3, 0, 1, struct.pack(">I", 8))); rst(s)
                    done += 1
                except OSError:
                    done += 1
        print("churned", done)
        """#

    /// A peer that leaves without a TLS close_notify, between two sends of
    /// another client: closing it must not leave an error for the other's read.
    @Test func aPeerThatLeavesDoesNotDropAnotherConnection() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: DescribeHandler(), logger: Fixtures.logger)
        let configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: 1, tls: HTTPClientTLSConfiguration(caFile: pki.caCertificatePath))
        try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { http in
                let base = "https://127.0.0.1:\(server.port)"
                for round in 0..<10 {
                    // curl opens its own connection and leaves without a TLS close_notify.
                    let other = try await runTool(
                        "/usr/bin/curl", ["-sS", "--http2", "--cacert", pki.caCertificatePath, base + "/other"])
                    #expect(other.output == "GET /other 0 cn=- verified=false", "round \(round)")
                    let kept = try await http.send(HTTPClientRequest(method: "GET", url: base + "/kept"))
                    #expect(
                        String(decoding: kept.body, as: UTF8.self) == "GET /kept 0 cn=- verified=false",
                        "round \(round)")
                }
            }
        }
    }

    @Test func aLongLivedClientLosesNothingWhileOtherClientsComeAndGoBadly() async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        router.on("POST", "/x") { _, responder in responder.respond(HTTP2Response(status: 200, text: "ok")) }
        router.on("GET", "/x") { _, responder in responder.respond(HTTP2Response(status: 200, text: "ok")) }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        let url = "https://127.0.0.1:\(server.port)/x"
        let configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: 1, requestTimeout: .seconds(10),
            tls: HTTPClientTLSConfiguration(caFile: pki.caCertificatePath))
        let tally = Tally()
        let (churn, curls) = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { http in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            while !tally.stopped {
                                do {
                                    let response = try await http.send(
                                        HTTPClientRequest(method: "POST", url: url, body: [1]))
                                    tally.record(response.status == 200 ? nil : "status \(response.status)")
                                } catch {
                                    tally.record("\(error)")
                                }
                            }
                        }
                    }
                    defer { tally.stop() }
                    async let churn = runTool(
                        "/usr/bin/python3", ["-c", Self.churnScript, "\(server.port)", pki.caCertificatePath, "15"])
                    var curls: [ToolRun] = []
                    for _ in 0..<10 {
                        curls.append(
                            try await runTool(
                                "/usr/bin/curl",
                                [
                                    "-sS", "--http2", "--cacert", pki.caCertificatePath,
                                    "https://localhost:\(server.port)/x",
                                ]))
                        curls.append(
                            try await runTool(
                                "/usr/bin/curl",
                                [
                                    "-sS", "--http1.1", "--cacert", pki.caCertificatePath,
                                    "https://localhost:\(server.port)/x",
                                ]))
                        curls.append(
                            try await runTool(
                                "/usr/bin/curl",
                                [
                                    "-sS", "--http2", "--cacert", pki.caCertificatePath, "-m", "0.05", "--limit-rate",
                                    "1",
                                    "-d", String(repeating: "z", count: 40_000), "https://localhost:\(server.port)/x",
                                ]))
                    }
                    let churned = try await churn
                    tally.stop()
                    try await group.waitForAll()
                    return (churned, curls)
                }
            }
        }
        #expect(churn.output.contains("churned 90"), "the churn script ran every round: \(churn.output)")
        #expect(
            curls.filter { $0.output == "ok" }.count == 20,
            "every plain curl (HTTP/2 and HTTP/1.1) got its answer: \(curls.map(\.output))")
        #expect(tally.sent > 50, "the long-lived client kept sending: \(tally.sent)")
        #expect(
            tally.failures.count == 0,
            "the long-lived client lost \(tally.failures.count) of \(tally.sent): \(tally.failures.prefix(3))")
    }
}

/// What the long-lived client sent and which of its requests failed.
final class Tally: Sendable {
    private let state = Locked((stopped: false, sent: 0, failures: [String]()))

    var stopped: Bool { state.withLock { $0.stopped } }
    var sent: Int { state.withLock { $0.sent } }
    var failures: [String] { state.withLock { $0.failures } }

    func stop() { state.withLock { $0.stopped = true } }

    /// Counts one request; `failure` says why it failed, nil if it succeeded.
    func record(_ failure: String?) {
        state.withLock { state in
            state.sent += 1
            if let failure { state.failures.append(failure) }
        }
    }
}
