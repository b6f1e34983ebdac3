import Foundation
import HeraldCore
@testable import HeraldHTTP2Server
import HeraldSystem
import HeraldTestSupport
import Testing

/// The listener's limits against raw clients that misbehave on purpose:
/// too many connections, idle or silent ones, an oversized header list and
/// an HPACK bomb, rapid resets — and out of file descriptors. Each client is
/// a Python script writing HTTP/2 frames or HTTP/1.1 by hand over a socket
/// (standard library only) and printing what it saw as JSON.
@Suite struct ListenerLimitTests {
    /// Frames, a little HPACK, and a connection that reads frames (acknowledging SETTINGS).
    static let h2Helpers = #"""
        import json, os, socket, ssl, struct, sys, threading, time

        def frame(kind, flags, stream, payload=b""):
            return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

        def hpack_int(value, prefix_bits, first):
            limit = (1 << prefix_bits) - 1
            if value < limit:
                return bytes([first | value])
            out, value = [first | limit], value - limit
            while value >= 128:
                out.append((value & 0x7F) | 0x80)
                value >>= 7
            return bytes(out + [value])

        def request(path):
            # :method GET, :scheme http (static table), :path and :authority literal with an indexed name.
            return bytes([0x82, 0x86, 0x04]) + hpack_int(len(path), 7, 0) + path + bytes([0x01, 9]) + b"localhost"

        PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0)
        WINDOW = frame(8, 0, 0, struct.pack(">I", 1 << 30))
        RST_CANCEL = struct.pack(">I", 8)

        class H2:
            def __init__(self, port, timeout=10):
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                self.buffer = b""
                self.goaway = None
                self.bodies, self.done = {}, {}

            def send(self, data):
                self.sock.sendall(data)

            def frame(self):
                """The next frame (kind, flags, stream, payload); None once the server has closed."""
                while len(self.buffer) < 9 or len(self.buffer) < 9 + int.from_bytes(self.buffer[:3], "big"):
                    try:
                        data = self.sock.recv(65536)
                    except ConnectionResetError:
                        data = b""
                    if not data:
                        return None
                    self.buffer += data
                length = int.from_bytes(self.buffer[:3], "big")
                kind, flags = self.buffer[3], self.buffer[4]
                stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
                payload, self.buffer = self.buffer[9:9 + length], self.buffer[9 + length:]
                if kind == 4 and not flags & 1:
                    self.send(frame(4, 1, 0))
                if kind == 7:
                    self.goaway = int.from_bytes(payload[4:8], "big")
                return kind, flags, stream, payload

            def answer(self, stream):
                """The DATA of `stream` up to END_STREAM as text, "<reset>", or "<closed>" (other streams' frames are kept)."""
                while stream not in self.done:
                    f = self.frame()
                    if f is None:
                        return "<closed>"
                    kind, flags, sid, payload = f
                    if kind == 3:
                        self.done[sid] = "<reset>"
                    if kind == 0:
                        self.bodies[sid] = self.bodies.get(sid, b"") + payload
                    if kind in (0, 1) and flags & 1:
                        self.done[sid] = self.bodies.pop(sid, b"").decode(errors="replace")
                return self.done.pop(stream)

            def wait_closed(self):
                """Seconds until the server closes the connection (reading and dropping frames), or None after the timeout."""
                start = time.time()
                try:
                    while self.frame() is not None:
                        pass
                except socket.timeout:
                    return None
                return time.time() - start

        def wait_closed(sock):
            start = time.time()
            try:
                while sock.recv(65536):
                    pass
            except ConnectionResetError:
                pass
            except socket.timeout:
                return None
            return time.time() - start

        def http1_answer(sock):
            """One HTTP/1.1 answer: its status line and body."""
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    return data.decode(errors="replace") + "<closed>"
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            length = next((int(l.split(b":")[1]) for l in lines if l.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                body += sock.recv(65536)
            return lines[0].decode() + " " + body.decode(errors="replace")

        def get(path):
            return b"GET " + path + b" HTTP/1.1\r\nHost: localhost\r\n\r\n"

        """#

    /// Opens `cap` HTTP/1.1 connections and keeps them, then one more; says
    /// whether it was answered before one of the others closed, and how much
    /// CPU the server's loop thread used meanwhile.
    static let capScript =
        h2Helpers + #"""
            port, pid, tid, cap = (int(a) for a in sys.argv[1:5])

            def cpu():
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

            held, answers = [], []
            for i in range(cap):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(get(b"/held"))
                answers.append(http1_answer(s))
                held.append(s)
            extra = socket.create_connection(("127.0.0.1", port), timeout=10)  # completes in the kernel's backlog
            extra.sendall(get(b"/extra"))
            extra.settimeout(2)
            before = cpu()
            try:
                early = extra.recv(65536).decode(errors="replace") or "<closed>"
            except socket.timeout:
                early = ""
            spent = cpu() - before
            held[0].close()
            extra.settimeout(10)
            try:
                later = http1_answer(extra) if not early else "<answered early>"
            except socket.timeout:
                later = "<timed out>"
            print(json.dumps({"held": answers, "early": early, "cpu": spent, "later": later}))
            """#

    @Test func atTheConnectionCapTheNextConnectionWaitsInTheBacklogWithoutSpinningTheLoop() async throws {
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(maxConnections: 8), handler: DescribeHandler(),
            logger: Fixtures.logger)
        let run = try await withRunning(server) {
            _ = await eventually(timeout: .seconds(60)) { server.loopThreadID.load(ordering: .acquiring) != 0 }
            return try await runTool(
                "/usr/bin/python3",
                [
                    "-c", Self.capScript, "\(server.port)", "\(ProcessInfo.processInfo.processIdentifier)",
                    "\(server.loopThreadID.load(ordering: .acquiring))", "8",
                ])
        }
        let results = try #require(try? JSONValue.parse(Array(run.output.utf8)).objectValue, "python: \(run.output)")
        let held = results["held"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(
            held.count == 8 && held.allSatisfy { $0.hasPrefix("HTTP/1.1 200 OK GET /held") },
            "8 connections served: \(held)")
        #expect(
            results["early"]?.stringValue == "", "the 9th connection waits unanswered while 8 are open: \(run.output)")
        let cpu = results["cpu"]?.doubleValue ?? .infinity
        #expect(cpu < 0.3, "the loop thread sleeps at the cap (CPU seconds in a 2 s wait: \(cpu))")
        #expect(
            results["later"]?.stringValue?.hasPrefix("HTTP/1.1 200 OK GET /extra") == true,
            "once one closes, the 9th is served: \(run.output)")
    }

    /// Runs the benchmark server with at most 32 file descriptors and opens
    /// 80 connections: `accept` fails with EMFILE. Reports the server's
    /// CPU while it is out of descriptors, whether it answers once they are
    /// free, and what it logged.
    static let emfileScript =
        h2Helpers + #"""
            import resource, subprocess
            bench, cert, key, ca = sys.argv[1:5]

            def limit():
                resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))

            server = subprocess.Popen([bench, "serve", "--cert", cert, "--key", key, "--log", "info"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit)
            port = int(server.stdout.readline().split()[1])
            log = []
            reader = threading.Thread(target=lambda: log.extend(line.decode(errors="replace") for line in server.stderr))
            reader.start()

            def cpu():
                with open(f"/proc/{server.pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

            clients = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(80)]
            deadline = time.time() + 10
            while time.time() < deadline and not any("accept failed" in line for line in log):
                time.sleep(0.05)
            time.sleep(0.3)
            before = cpu()
            time.sleep(2)
            spent = cpu() - before
            for c in clients:
                c.close()
            context = ssl.create_default_context(cafile=ca)
            context.set_alpn_protocols(["http/1.1"])
            answer = ""
            for attempt in range(20):
                try:
                    s = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10), server_hostname="localhost")
                    s.sendall(get(b"/after"))
                    answer = http1_answer(s)
                    s.close()
                    break
                except OSError as error:
                    answer = str(error)
                    time.sleep(0.25)
            server.stdin.close()
            server.wait(timeout=10)
            reader.join()
            print(json.dumps({"cpu": spent, "answer": answer, "log": log}))
            """#

    @Test func outOfFileDescriptorsTheListenerBacksOffInsteadOfSpinning() async throws {
        let pki = try await Fixtures.pki.get()
        let bench = try Self.executable("herald-bench")
        let run = try await runTool(
            "/usr/bin/python3",
            [
                "-c", Self.emfileScript, bench, pki.serverCertificatePath, pki.serverKeyPath, pki.caCertificatePath,
            ])
        let results = try #require(try? JSONValue.parse(Array(run.output.utf8)).objectValue, "python: \(run.output)")
        let log = results["log"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let failures = log.filter { $0.contains("accept failed") }
        // One episode: from the first failure until the backlog is drained, retries and single accepts included.
        #expect(failures.count == 1, "one warning per back-off episode, not one per retry: \(log)")
        #expect(failures.first?.contains("Too many open files") == true, "the warning names the error: \(failures)")
        let cpu = results["cpu"]?.doubleValue ?? .infinity
        #expect(cpu < 0.3, "the server sleeps between retries (CPU seconds in 2 s out of descriptors: \(cpu))")
        #expect(
            results["answer"]?.stringValue?.hasPrefix("HTTP/1.1 200 OK") == true,
            "with descriptors free again it serves: \(results["answer"]?.stringValue ?? run.output)")
        #expect(
            log.contains { $0.contains("accepting again after accept failures") }, "the episode's end is logged: \(log)"
        )
    }

    /// An idle HTTP/2 and an idle HTTP/1.1 connection, and an HTTP/2
    /// connection in use: a request every 300 ms, then one answered after 2 s.
    static let idleScript =
        h2Helpers + #"""
            port = int(sys.argv[1])
            results = {}

            def idle_h2():
                c = H2(port)
                c.send(PREFACE)
                results["h2"] = {"seconds": c.wait_closed(), "goaway": c.goaway}

            def idle_h1():
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(get(b"/id"))
                answer = http1_answer(s)
                results["h1"] = {"answer": answer, "seconds": wait_closed(s)}

            def active_h2():
                c = H2(port)
                c.send(PREFACE + WINDOW)
                answers = []
                for i in range(10):
                    c.send(frame(1, 0x5, 2 * i + 1, request(b"/id")))
                    answers.append(c.answer(2 * i + 1))
                    time.sleep(0.3)
                c.send(frame(1, 0x5, 21, request(b"/slow")))
                answers.append(c.answer(21))
                results["active"] = {"answers": answers, "goaway": c.goaway}

            threads = [threading.Thread(target=f) for f in (idle_h2, idle_h1, active_h2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            print(json.dumps(results))
            """#

    @Test func anIdleConnectionIsClosedAndOneInUseIsNot() async throws {
        var router = HTTP2Router()
        router.on("GET", "/id") { request, responder in
            responder.respond(HTTP2Response(status: 200, text: "\(request.connectionID)"))
        }
        router.on("GET", "/slow") { request, responder in
            responder.respond(HTTP2Response(status: 200, text: "\(request.connectionID)"), after: .seconds(3))
        }
        // 2 s idle: the active client's 0.3 s gaps stay well inside it even when a loaded machine
        // delays its answers; the slow answer takes longer than the timeout.
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(idleTimeout: .seconds(2)), handler: router, logger: Fixtures.logger)
        let run = try await withRunning(server) {
            try await runTool("/usr/bin/python3", ["-c", Self.idleScript, "\(server.port)"])
        }
        let results = try #require(try? JSONValue.parse(Array(run.output.utf8)).objectValue, "python: \(run.output)")

        let h2 = results["h2"]?.objectValue
        let h2Seconds = h2?["seconds"]?.doubleValue
        #expect(h2?["goaway"]?.intValue == 0, "an idle HTTP/2 connection gets GOAWAY(NO_ERROR): \(run.output)")
        #expect(h2Seconds.map { $0 >= 1.5 && $0 <= 7 } == true, "…and is closed after about 2 s: \(run.output)")
        let h1 = results["h1"]?.objectValue
        #expect(h1?["answer"]?.stringValue?.hasPrefix("HTTP/1.1 200 OK") == true, "\(run.output)")
        #expect(
            h1?["seconds"]?.doubleValue.map { $0 >= 1.5 && $0 <= 7 } == true,
            "an idle HTTP/1.1 connection is closed after its answer: \(run.output)")
        let active = results["active"]?.objectValue
        let answers = active?["answers"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(
            answers.count == 11 && Set(answers).count == 1 && Int(answers.first ?? "") != nil,
            "every request, the one answered after 3 s too, on one connection: \(answers)")
        #expect(active?["goaway"] == JSONValue.null, "no GOAWAY while in use: \(run.output)")
    }

    /// Clients that never finish their start: silent (cleartext and TLS),
    /// half a preface, the preface without SETTINGS, an HTTP/1.1 head sent a
    /// byte at a time (first request and a later one); and one that sends its
    /// preface, waits past the timeout, then asks.
    static let headerScript =
        h2Helpers + #"""
            port, tls_port = int(sys.argv[1]), int(sys.argv[2])
            results = {}

            def silent(name, target):
                s = socket.create_connection(("127.0.0.1", target), timeout=8)
                results[name] = wait_closed(s)

            def partial(name, data):
                s = socket.create_connection(("127.0.0.1", port), timeout=8)
                s.sendall(data)
                results[name] = wait_closed(s)

            def trickle(name, first):
                s = socket.create_connection(("127.0.0.1", port), timeout=8)
                prefix = b""
                if first:
                    s.sendall(get(b"/first"))
                    prefix = http1_answer(s).encode()
                start = time.time()
                try:
                    for byte in b"GET /slow HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 100:
                        s.sendall(bytes([byte]))
                        time.sleep(0.2)
                        if time.time() - start > 8:
                            break
                    results[name] = wait_closed(s)
                except OSError:
                    results[name] = time.time() - start
                if first:
                    results[name + "_first"] = prefix.decode()

            def patient():
                c = H2(port)
                c.send(PREFACE + WINDOW)
                time.sleep(2)
                c.send(frame(1, 0x5, 1, request(b"/late")))
                results["patient"] = c.answer(1)

            jobs = [
                lambda: silent("silent", port), lambda: silent("silent_tls", tls_port),
                lambda: partial("half_preface", b"PRI * HTTP/2.0\r\n"),
                lambda: partial("no_settings", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
                lambda: trickle("trickle", False), lambda: trickle("trickle_second", True), patient,
            ]
            threads = [threading.Thread(target=job) for job in jobs]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            print(json.dumps(results))
            """#

    @Test func aConnectionThatDoesNotFinishItsStartInTimeIsClosed() async throws {
        let pki = try await Fixtures.pki.get()
        var configuration = HTTP2ServerConfiguration(idleTimeout: .seconds(30), headerTimeout: .seconds(1))
        let cleartext = try HTTP2Server(
            configuration: configuration, handler: DescribeHandler(), logger: Fixtures.logger)
        configuration.tls = Fixtures.tlsServer(pki).tls
        let tls = try HTTP2Server(configuration: configuration, handler: DescribeHandler(), logger: Fixtures.logger)
        let run = try await withRunning(cleartext) {
            try await withRunning(tls) {
                try await runTool("/usr/bin/python3", ["-c", Self.headerScript, "\(cleartext.port)", "\(tls.port)"])
            }
        }
        let results = try #require(try? JSONValue.parse(Array(run.output.utf8)).objectValue, "python: \(run.output)")
        for name in ["silent", "silent_tls", "half_preface", "no_settings", "trickle", "trickle_second"] {
            let seconds = results[name]?.doubleValue
            #expect(seconds.map { $0 >= 0.5 && $0 <= 5 } == true, "\(name): closed after about 1 s: \(run.output)")
        }
        #expect(
            results["trickle_second_first"]?.stringValue?.hasPrefix("HTTP/1.1 200 OK GET /first") == true,
            "\(run.output)")
        #expect(
            results["patient"]?.stringValue == "GET /late 0 cn=- verified=false",
            "a connection past its preface is not held to the header timeout: \(run.output)")
    }

    /// An HPACK bomb: one 4 000-byte field into the dynamic table, then
    /// 55 000 one-byte references to it (~222 MB decoded from ~59 KB, in a
    /// HEADERS and CONTINUATION frames); then a plain request on the same connection.
    static let bombScript =
        h2Helpers + #"""
            port = int(sys.argv[1])
            c = H2(port)
            c.send(PREFACE + WINDOW)
            name, value = b"x-bomb", b"a" * 4000
            block = request(b"/bomb") + b"\x40" + hpack_int(len(name), 7, 0) + name + hpack_int(len(value), 7, 0) + value
            block += bytes([0x80 | 62]) * 55000
            chunks = [block[i:i + 16384] for i in range(0, len(block), 16384)]
            frames = frame(1, 0x1 | (0x4 if len(chunks) == 1 else 0), 1, chunks[0])
            for i, chunk in enumerate(chunks[1:], 1):
                frames += frame(9, 0x4 if i == len(chunks) - 1 else 0, 1, chunk)
            c.send(frames)
            bomb = c.answer(1)
            c.send(frame(1, 0x5, 3, request(b"/after")))
            print(json.dumps({"frames": len(chunks), "bomb": bomb, "after": c.answer(3), "goaway": c.goaway}))
            """#

    @Test func aHeaderListOverTheLimitIsRefusedWithoutKeepingItAndTheConnectionGoesOn() async throws {
        let calls = CallLog()
        var router = HTTP2Router()
        router.on("GET", "*") { request, responder in
            calls.append(request.path)
            responder.respond(HTTP2Response(status: 200, text: "\(request.path) \(request.connectionID)"))
        }
        // curl (nghttp2) refuses to send a header list it cannot bound under 64 KiB, so it meets a 16 KiB limit
        // (over TLS: curl 7.88 does not reuse a prior-knowledge h2c connection across --next); the bomb meets the default.
        let pki = try await Fixtures.pki.get()
        var smallConfiguration = Fixtures.tlsServer(pki)
        smallConfiguration.maxHeaderListBytes = 16 << 10
        let small = try HTTP2Server(configuration: smallConfiguration, handler: router, logger: Fixtures.logger)
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(), handler: router, logger: Fixtures.logger)
        let smallBase = "https://localhost:\(small.port)"
        let big = (1...2).flatMap { ["-H", "x-big-\($0): " + String(repeating: "a", count: 10_000)] }
        let (settings, curl, bomb) = try await withRunning(small) {
            try await withRunning(server) {
                (
                    try await runTool("/usr/bin/nghttp", ["-v", "-n", "http://127.0.0.1:\(server.port)/settings"]),
                    try await runTool(
                        "/usr/bin/curl",
                        ["-sS", "--http2", "--cacert", pki.caCertificatePath] + big + [
                            "-o", "/dev/null", "-w", "%{http_code} ", smallBase + "/big", "--next",
                            "-sS", "--http2", "--cacert", pki.caCertificatePath, "-o", "/dev/null", "-w",
                            "%{http_code} %{num_connects}",
                            smallBase + "/small",
                        ]),
                    try await runTool("/usr/bin/python3", ["-c", Self.bombScript, "\(server.port)"])
                )
            }
        }
        #expect(
            settings.output.contains("[SETTINGS_MAX_HEADER_LIST_SIZE(0x06):65536]"), "advertised: \(settings.output)")
        #expect(
            !settings.output.contains("[SETTINGS_HEADER_TABLE_SIZE(0x01):"),
            "the HPACK table stays at 4096: \(settings.output)")
        #expect(
            curl.output == "431 200 0", "431, then a request on the same connection (no new connect): \(curl.output)")
        let results = try #require(try? JSONValue.parse(Array(bomb.output.utf8)).objectValue, "python: \(bomb.output)")
        #expect((results["frames"]?.intValue ?? 0) >= 4, "\(bomb.output)")
        #expect(
            results["bomb"]?.stringValue == "the header list exceeds 65536 bytes\n",
            "the bomb is answered 431: \(bomb.output)")
        #expect(results["after"]?.stringValue?.hasPrefix("/after ") == true, "the connection goes on: \(bomb.output)")
        #expect(results["goaway"] == JSONValue.null, "\(bomb.output)")
        #expect(
            !calls.entries.contains("/big") && !calls.entries.contains("/bomb"),
            "the handler never saw them: \(calls.entries)")
        #expect(calls.entries.contains("/small") && calls.entries.contains("/after"), "\(calls.entries)")
    }

    /// `attack`: 1000 streams opened and reset at once, before any answer.
    /// `polite`: 2000 requests, 50 at a time, each reset after its answer
    /// (as libcurl does), then one more request.
    static let resetScript =
        h2Helpers + #"""
            port, mode = int(sys.argv[1]), sys.argv[2]
            c = H2(port)
            c.send(PREFACE + WINDOW)
            result = {}
            if mode == "attack":
                try:
                    c.send(b"".join(frame(1, 0x5, 2 * i + 1, request(b"/slow")) + frame(3, 0, 2 * i + 1, RST_CANCEL) for i in range(1000)))
                except OSError:
                    pass
                result["seconds"] = c.wait_closed()
            else:
                answered, stream = 0, 1
                for batch in range(40):
                    ids = [stream + 2 * i for i in range(50)]
                    stream += 100
                    c.send(b"".join(frame(1, 0x5, i, request(b"/fast")) for i in ids))
                    answered += sum(1 for i in ids if c.answer(i) == "")
                    c.send(b"".join(frame(3, 0, i, RST_CANCEL) for i in ids))
                c.send(frame(1, 0x5, stream, request(b"/fast")))
                result["answered"] = answered
                result["last"] = c.answer(stream)
            result["goaway"] = c.goaway
            print(json.dumps(result))
            """#

    @Test func rapidResetGetsEnhanceYourCalmWhileResetsOfAnsweredStreamsNeverCount() async throws {
        var router = HTTP2Router()
        router.on("GET", "/fast") { _, responder in responder.respond(HTTP2Response(status: 200)) }
        router.on("GET", "/slow") { _, responder in responder.respond(HTTP2Response(status: 200), after: .seconds(10)) }
        let sink = MemoryLogSink()
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(), handler: router,
            logger: Logger(label: "test", level: .warning, sink: sink))
        let (attack, polite) = try await withRunning(server) {
            (
                try await runTool("/usr/bin/python3", ["-c", Self.resetScript, "\(server.port)", "attack"]),
                try await runTool("/usr/bin/python3", ["-c", Self.resetScript, "\(server.port)", "polite"])
            )
        }
        let attacked = try #require(
            try? JSONValue.parse(Array(attack.output.utf8)).objectValue, "python: \(attack.output)")
        #expect(
            attacked["goaway"]?.intValue == Int(HTTP2ErrorCode.enhanceYourCalm.rawValue),
            "GOAWAY(ENHANCE_YOUR_CALM): \(attack.output)")
        #expect(
            attacked["seconds"]?.doubleValue.map { $0 <= 5 } == true, "then the connection is closed: \(attack.output)")
        #expect(sink.lines.contains { $0.contains("rapid reset") }, "and the server says why: \(sink.lines)")
        let polished = try #require(
            try? JSONValue.parse(Array(polite.output.utf8)).objectValue, "python: \(polite.output)")
        #expect(polished["answered"]?.intValue == 2000, "\(polite.output)")
        #expect(
            polished["last"]?.stringValue == "",
            "the connection still serves after 2000 resets of answered streams: \(polite.output)")
        #expect(polished["goaway"] == JSONValue.null, "no GOAWAY for resets of answered streams: \(polite.output)")
        #expect(sink.lines.filter { $0.contains("rapid reset") }.count == 1, "only the attacker: \(sink.lines)")
    }

    /// `name` next to the test bundle (`.build/<triple>/debug/`), as `swift build --build-tests` leaves it.
    static func executable(_ name: String) throws -> String {
        let bundle = Bundle.main.bundleURL.standardizedFileURL
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        let candidates = [
            bundle.deletingLastPathComponent().appendingPathComponent(name).path,
            argv0.deletingLastPathComponent().appendingPathComponent(name).path,
            bundle.appendingPathComponent(name).path,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ExecutableNotFound(name: name, candidates: candidates)
        }
        return found
    }
}

/// A built executable a test runs was not where `swift build` puts it.
struct ExecutableNotFound: Error, CustomStringConvertible {
    let name: String
    let candidates: [String]

    var description: String {
        "\(name) was not found (looked at \(candidates.joined(separator: ", "))); build it with `swift build --build-tests`"
    }
}

/// The paths a handler was called with, in order.
final class CallLog: Sendable {
    private let storage = Locked<[String]>([])

    var entries: [String] { storage.withLock { $0 } }

    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
}
