import Foundation
import Glibc
import HeraldAMQP
import HeraldCore
import HeraldSystem
import HeraldTestSupport

/// A TCP relay on 127.0.0.1 in front of the shared broker that a test can cut:
/// `cut()` drops every connection through it at once, mid-stream, as a network
/// or a load balancer would, while it keeps accepting new ones. The client sees
/// its connection lost and reconnects through the relay; the broker sees its
/// client go away. One thread accepts, one thread per connection copies bytes
/// both ways.
///
/// `@unchecked Sendable`: its mutable state (the live connections' sockets and
/// the stopped flag) is only touched under `state`'s lock; a socket is shut down
/// under that lock and closed only by its own copying thread after it left the
/// set, so `cut()` never touches a descriptor number the kernel reused.
final class CuttableRelay: @unchecked Sendable {
    private struct State {
        var sockets: Set<Int32> = []
        var stopped = false
        var accepted = 0
    }

    let port: UInt16
    private let listener: LoopbackListener
    private let target: AMQPURL
    private let state = Locked(State())

    /// Nil when no loopback port can be listened on.
    init?(target: AMQPURL) {
        guard let listener = LoopbackListener(backlog: 64) else { return nil }
        self.listener = listener
        self.port = listener.port
        self.target = target
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// The broker's URL (same credentials and vhost) through this relay.
    var url: AMQPURL {
        var relayed = target
        relayed.host = "127.0.0.1"
        relayed.port = Int(port)
        return relayed
    }

    /// Connections accepted so far.
    var accepted: Int { state.withLock { $0.accepted } }

    /// Drops every connection through the relay now; new ones are still accepted.
    func cut() {
        state.withLock { state in
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Stops accepting and drops every connection.
    func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !wasStopped else { return }
        // Wakes the accepting thread (its accept fails); the listener is closed when released.
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
        cut()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener.descriptor, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            guard let broker = try? RawTCPClient(host: target.host, port: target.port) else {
                close(client)
                continue
            }
            let admitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.sockets.formUnion([client, broker.fd])
                state.accepted += 1
                return true
            }
            guard admitted else {
                close(client)
                continue
            }
            Thread { [self] in
                copyBothWays(client, broker.fd)
                state.withLock { $0.sockets.subtract([client, broker.fd]) }
                close(client)
                withExtendedLifetime(broker) {}  // closes the broker side
            }.start()
        }
    }

    /// Copies bytes between the two sockets until either side closes or fails.
    private func copyBothWays(_ a: Int32, _ b: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [
            pollfd(fd: a, events: Int16(POLLIN), revents: 0),
            pollfd(fd: b, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            guard poll(&descriptors, 2, -1) > 0 || errno == EINTR else { return }
            for index in 0..<2 where descriptors[index].revents != 0 {
                let from = descriptors[index].fd
                let to = descriptors[1 - index].fd
                let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                guard writeAll(buffer, count: count, to: to) else { return }
            }
        }
    }

    private func writeAll(_ buffer: [UInt8], count: Int, to socket: Int32) -> Bool {
        var written = 0
        while written < count {
            let sent = buffer.withUnsafeBytes { raw in
                send(socket, raw.baseAddress.unsafelyUnwrapped + written, count - written, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            written += sent
        }
        return true
    }
}
