import Glibc
@testable import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// `SocketCork` against real loopback TCP sockets: a corked socket holds a
/// small write back, `flush()` sends it at once and leaves the cork on.
@Suite struct SocketCorkTests {
    @Test func aCorkedSocketHoldsASmallWriteUntilFlushedAndStaysCorked() throws {
        let (client, server) = try Self.connectedPair()
        defer { close(client); close(server) }
        let cork = SocketCork()
        cork.cork(client)
        #expect(cork.descriptors == [client])

        let sent = Array("PRI * HTTP/2.0".utf8)
        #expect(send(client, sent, sent.count, 0) == sent.count)
        var buffer = [UInt8](repeating: 0, count: 64)
        // The kernel holds a corked partial segment for up to 200 ms.
        #expect(
            recv(server, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == -1 && errno == EAGAIN, "held back by the cork")

        cork.flush()
        var ready = pollfd(fd: server, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 100) == 1, "readable at once after the flush, well before the kernel's own 200 ms")
        let received = recv(server, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(received == sent.count && Array(buffer.prefix(max(0, received))) == sent)
        #expect(Self.option(client, TCP_CORK) == 1, "the cork stays on for the next pass")
    }

    @Test func closedSocketsAreForgottenAndNoLongerFlushed() throws {
        let (first, firstPeer) = try Self.connectedPair()
        let (second, secondPeer) = try Self.connectedPair()
        defer { [first, firstPeer, second, secondPeer].forEach { close($0) } }
        let cork = SocketCork()
        cork.cork(first)
        cork.cork(second)
        cork.forget(first)
        #expect(cork.descriptors == [second])
    }

    @Test func aDescriptorThatIsNotATCPSocketIsNotTracked() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        let cork = SocketCork()
        cork.cork(pipeEnds[1])
        #expect(cork.descriptors.isEmpty)
    }

    /// A connected loopback TCP pair (client, accepted server side).
    static func connectedPair() throws -> (Int32, Int32) {
        let listener = try #require(LoopbackListener(backlog: 1), "loopback listener")
        defer { listener.close() }
        var address = listener.address
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) == 0 }
        }
        try #require(connected, "connected to the listener")
        let server = accept(listener.descriptor, nil, nil)
        try #require(server >= 0, "accepted")
        return (client, server)
    }

    static func option(_ socket: Int32, _ name: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(socket, Int32(IPPROTO_TCP), name, &value, &length)
        return value
    }
}
