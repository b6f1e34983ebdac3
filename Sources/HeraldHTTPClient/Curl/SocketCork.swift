import CCurl
import CHeraldShim

// Build note: with Swift 6.3, a file of this module that names `CURL_SOCKOPT_OK`
// or `CURLSOCKTYPE_IPCXN` and sorts before `CurlErrorClassifier.swift` makes
// release builds lose sight of the `CURLE_*` codes; hence this file's name, and
// the TCP options set through `CHeraldShim` (`<netinet/tcp.h>` does the same).

/// The TCP sockets of one multi handle's connections, corked (`TCP_CORK`)
/// so that what libcurl writes during one loop pass leaves in as few
/// segments as possible, and flushed once at the end of the pass.
///
/// Why: libcurl 7.88 hands nghttp2's frames to the socket one `send` at a
/// time — a HEADERS and a DATA frame per request, each its own TLS record
/// and TCP segment, each waking the peer. Corked, the requests started in
/// one pass share segments, and both ends spend less CPU per request: the C
/// reference client corked the same way (`REF_CORK=1`) spent 59.0 µs per
/// request against 65.0, and the simulator 49.0 against 65.0
/// (bench/README.md, end-to-end limits).
///
/// Nothing waits on a timer: `flush()` sets `TCP_NODELAY`, which pushes
/// whatever is pending at once while the cork stays on for the next pass.
/// Touched only by the loop thread: libcurl calls the callbacks from inside
/// the multi calls that thread makes, `curl_multi_cleanup` included.
final class SocketCork {
    /// Sockets currently open and corked.
    private(set) var descriptors: [Int32] = []

    /// Makes libcurl report the sockets of `easy`'s connections here and
    /// close them through `forget` (the connection pool outlives any one
    /// transfer, so the callbacks are set on every handle).
    func install(on easy: CurlEasy) {
        let context = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        _ = herald_curl_easy_setopt_sockopt_function(easy.handle) { context, socket, purpose in
            guard let context, purpose == Int32(CURLSOCKTYPE_IPCXN.rawValue) else { return CURL_SOCKOPT_OK }
            SocketCork.from(context).cork(socket)
            return CURL_SOCKOPT_OK
        }
        easy.set(CURLOPT_SOCKOPTDATA, pointer: context)
        _ = herald_curl_easy_setopt_closesocket_function(easy.handle) { context, socket in
            if let context { SocketCork.from(context).forget(socket) }
            return herald_socket_close(socket)
        }
        easy.set(CURLOPT_CLOSESOCKETDATA, pointer: context)
    }

    /// Sends what every socket holds back. One system call per open socket.
    func flush() {
        for socket in descriptors { _ = herald_tcp_push(socket) }
    }

    /// Corks a new connection's socket; one that refuses (not TCP) is left
    /// as it is and never flushed.
    func cork(_ socket: Int32) {
        guard herald_tcp_set_cork(socket, 1) == 0 else { return }
        descriptors.append(socket)
    }

    func forget(_ socket: Int32) {
        descriptors.removeAll { $0 == socket }
    }

    private static func from(_ context: UnsafeMutableRawPointer) -> SocketCork {
        Unmanaged<SocketCork>.fromOpaque(context).takeUnretainedValue()
    }
}
