import CHeraldShim
import COpenSSL
import Glibc
import HeraldSystem
import HeraldTestSupport
import HeraldTLS
import Testing

/// The write pump's typed results against real sockets: a connected TCP pair
/// from `LoopbackListener`, plain or with TLS on both ends (the server end on
/// `TestPKI`'s certificate). Every blocking step runs on a thread of its own.
@Suite struct WritePumpTests {
    @Test func aFullSocketTakesPartOfTheBytesThenWouldBlockAndTheRestLater() async throws {
        let pair = try #require(SocketPair(sendBuffer: 16 * 1024))
        typealias Report = (first: SocketWriteResult, blocked: Bool, offset: Int, received: [UInt8])
        let report = await onOwnThread { () -> Report in
            var pump = WritePump(capacity: 0)
            pump.bytes = Self.pattern(count: 4 << 20)
            let first = pump.write(fd: pair.writer, ssl: nil)
            var blocked = false
            for _ in 0..<10_000 where !blocked {
                if pump.write(fd: pair.writer, ssl: nil) == .wouldBlock { blocked = true }
            }
            let offset = pump.offset
            // The reader takes everything while the pump writes the rest.
            var received: [UInt8] = []
            while !pump.isEmpty || received.count < pump.bytes.count {
                if !pump.isEmpty, case .failed = pump.write(fd: pair.writer, ssl: nil) { break }
                guard pair.waitReadable(), pair.readAvailable(into: &received) else { break }
            }
            return (first, blocked, offset, received)
        }
        guard case .wrote(let count) = report.first else {
            Issue.record("the first write wrote nothing: \(report.first)")
            return
        }
        #expect(count > 0 && count < 4 << 20, "a partial write: \(count) of \(4 << 20) bytes")
        #expect(report.blocked, "a socket whose peer does not read ends in .wouldBlock")
        #expect(report.offset > 0 && report.offset < 4 << 20)
        #expect(report.received == Self.pattern(count: 4 << 20), "the peer got every byte once, in order")
    }

    @Test func aPeerThatClosedIsClosedWithoutSIGPIPE() async throws {
        let pair = try #require(SocketPair())
        pair.closeReader()
        let report = await onOwnThread { () -> (result: SocketWriteResult, pipeRaised: Bool) in
            // Blocked, a SIGPIPE would stay pending on this thread, where the check below sees it.
            BrokenPipe.blockOnThisThread()
            let result = Self.writeUntilNotWritten(fd: pair.writer, ssl: nil, pair: pair)
            return (result, Self.takePendingBrokenPipe())
        }
        guard case .closed(let reason) = report.result else {
            Issue.record("expected .closed, got \(report.result)")
            return
        }
        #expect(reason.hasPrefix("write failed: "), "\(reason)")
        #expect(!report.pipeRaised, "a plain socket write never raises SIGPIPE (MSG_NOSIGNAL)")
    }

    @Test func tlsWritesArePartialThenWouldBlock() async throws {
        let pki = try await TestPKI.make()
        defer { pki.remove() }
        let pair = try #require(SocketPair(sendBuffer: 16 * 1024))
        let report = await onOwnThread { () -> (first: SocketWriteResult, last: SocketWriteResult, error: String?) in
            let tls: TLSPair
            do { tls = try TLSPair(pair: pair, pki: pki) } catch { return (.wrote(0), .wrote(0), "\(error)") }
            defer { tls.free() }
            let bytes = Self.pattern(count: 4 << 20)
            let first = bytes.withUnsafeBytes { WritePump.write($0, fd: pair.writer, ssl: tls.client) }
            var last = first
            var offset = 0
            for _ in 0..<10_000 {
                last = bytes.withUnsafeBytes {
                    WritePump.write(UnsafeRawBufferPointer(rebasing: $0[offset...]), fd: pair.writer, ssl: tls.client)
                }
                guard case .wrote(let count) = last else { break }
                offset += count
            }
            return (first, last, nil)
        }
        #expect(report.error == nil, "\(report.error ?? "")")
        guard case .wrote(let count) = report.first else {
            Issue.record("the first TLS write wrote nothing: \(report.first)")
            return
        }
        #expect(count > 0 && count < 4 << 20, "a partial TLS write: \(count) of \(4 << 20) bytes")
        #expect(report.last == .wouldBlock, "TLS to a peer that does not read ends in .wouldBlock")
    }

    @Test func aTLSPeerThatClosedIsClosedAndTheProcessLives() async throws {
        let pki = try await TestPKI.make()
        defer { pki.remove() }
        let pair = try #require(SocketPair())
        let report = await onOwnThread { () -> (result: SocketWriteResult, error: String?) in
            // OpenSSL writes with write(2): the loop threads block SIGPIPE, and so does this one.
            BrokenPipe.blockOnThisThread()
            let tls: TLSPair
            do { tls = try TLSPair(pair: pair, pki: pki) } catch { return (.wrote(0), "\(error)") }
            defer { tls.free() }
            pair.closeReader()
            let result = Self.writeUntilNotWritten(fd: pair.writer, ssl: tls.client, pair: pair)
            _ = Self.takePendingBrokenPipe()
            return (result, nil)
        }
        #expect(report.error == nil, "\(report.error ?? "")")
        guard case .closed(let reason) = report.result else {
            Issue.record("expected .closed, got \(report.result)")
            return
        }
        #expect(reason.hasPrefix("TLS write failed: "), "\(reason)")
    }

    // MARK: Helpers

    static func pattern(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    /// Writes until a write is not `.wrote`, waiting for writability after
    /// `.wouldBlock`: a peer that has gone ends it with `.closed`.
    static func writeUntilNotWritten(fd: Int32, ssl: OpaquePointer?, pair: SocketPair) -> SocketWriteResult {
        let chunk = [UInt8](repeating: 0x5a, count: 16 * 1024)
        var result = SocketWriteResult.wrote(0)
        for _ in 0..<100_000 {
            result = chunk.withUnsafeBytes { WritePump.write($0, fd: fd, ssl: ssl) }
            switch result {
            case .wrote: continue
            case .wouldBlock, .needsRead: guard pair.waitWritable() else { return result }
            case .closed, .failed: return result
            }
        }
        return result
    }

    /// Whether a SIGPIPE is pending on this thread (taking it if so).
    static func takePendingBrokenPipe() -> Bool {
        var pending = sigset_t()
        sigpending(&pending)
        guard sigismember(&pending, SIGPIPE) == 1 else { return false }
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var timeout = timespec()
        _ = sigtimedwait(&pipe, nil, &timeout)
        return true
    }
}

/// A connected pair of non-blocking TCP sockets on 127.0.0.1: `writer` (the
/// connecting end) and `reader` (the accepted end).
///
/// `@unchecked Sendable`: the descriptors are set once in `init`; `reader` is
/// closed at most once, by the one thread of the test that uses the pair at a time.
final class SocketPair: @unchecked Sendable {
    let writer: Int32
    private(set) var reader: Int32

    init?(sendBuffer: Int32? = nil) {
        guard let listener = LoopbackListener() else { return nil }
        defer { listener.close() }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard client >= 0 else { return nil }
        if var size = sendBuffer {
            setsockopt(client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = listener.address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let accepted = connected == 0 ? accept(listener.descriptor, nil, nil) : -1
        guard accepted >= 0 else {
            Glibc.close(client)
            return nil
        }
        if var size = sendBuffer {
            setsockopt(accepted, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        for fd in [client, accepted] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        writer = client
        reader = accepted
    }

    deinit {
        Glibc.close(writer)
        closeReader()
    }

    func closeReader() {
        guard reader >= 0 else { return }
        Glibc.close(reader)
        reader = -1
    }

    /// Waits until the writer may write (or has failed); false after 10 s, which only a failure reaches.
    func waitWritable() -> Bool { wait(writer, for: Int16(POLLOUT)) }

    /// Waits until the reader has bytes (or has failed); false after 10 s.
    func waitReadable() -> Bool { wait(reader, for: Int16(POLLIN)) }

    /// Reads what the reader has into `received`; false when the socket failed or closed.
    func readAvailable(into received: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if n > 0 {
                received.append(contentsOf: buffer[..<n])
                continue
            }
            return n < 0 && (errno == EAGAIN || errno == EINTR)
        }
    }

    private func wait(_ fd: Int32, for events: Int16) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        return poll(&entry, 1, 10_000) > 0
    }
}

/// TLS on both ends of a `SocketPair`, the handshake done: `client` on the
/// writer, `server` (on `TestPKI`'s certificate) on the reader, both in the
/// modes the client and the server use (partial writes, a moving buffer).
struct TLSPair {
    let client: OpaquePointer
    let server: OpaquePointer
    private let contexts: [OpaquePointer]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(pair: SocketPair, pki: TestPKI) throws(Failure) {
        guard let clientContext = SSL_CTX_new(TLS_client_method()),
            let serverContext = SSL_CTX_new(TLS_server_method())
        else {
            throw Failure(description: "SSL_CTX_new: \(OpenSSLErrorQueue.drain())")
        }
        contexts = [clientContext, serverContext]
        let mode = Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER)
        _ = herald_ssl_ctx_set_mode(clientContext, mode)
        _ = herald_ssl_ctx_set_mode(serverContext, mode)
        guard SSL_CTX_use_certificate_chain_file(serverContext, pki.serverCertificatePath) == 1,
            SSL_CTX_use_PrivateKey_file(serverContext, pki.serverKeyPath, SSL_FILETYPE_PEM) == 1,
            let client = SSL_new(clientContext), let server = SSL_new(serverContext)
        else {
            throw Failure(description: "TLS set-up: \(OpenSSLErrorQueue.drain())")
        }
        self.client = client
        self.server = server
        SSL_set_fd(client, pair.writer)
        SSL_set_fd(server, pair.reader)
        SSL_set_connect_state(client)
        SSL_set_accept_state(server)
        var done = (client: false, server: false)
        for _ in 0..<10_000 where !(done.client && done.server) {
            for (ssl, isClient) in [(client, true), (server, false)] where !(isClient ? done.client : done.server) {
                OpenSSLErrorQueue.clear()
                let rv = SSL_do_handshake(ssl)
                if rv == 1 {
                    if isClient { done.client = true } else { done.server = true }
                    continue
                }
                let error = SSL_get_error(ssl, rv)
                guard error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE else {
                    throw Failure(description: "handshake: \(OpenSSLErrorQueue.drain())")
                }
            }
            if !(done.client && done.server) {
                var entries = [
                    pollfd(fd: pair.writer, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: pair.reader, events: Int16(POLLIN), revents: 0),
                ]
                _ = poll(&entries, 2, 100)
            }
        }
        guard done.client && done.server else { throw Failure(description: "the handshake did not finish") }
    }

    func free() {
        SSL_free(client)
        SSL_free(server)
        for context in contexts { SSL_CTX_free(context) }
    }
}
