import CCurl
import CHeraldShim

/// The C callbacks installed on every easy handle; each finds its `Transfer`
/// through the user-data pointer libcurl passes back. (`CURL_PREREQFUNC_OK`
/// is 0, `CURL_PREREQFUNC_ABORT` 1.)
enum CurlCallbacks {
    static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, userData in
        let total = size * count
        guard let userData else { return 0 }
        guard total > 0, let data else { return total }
        let accepted = Transfer.from(userData).receiveBody(UnsafeRawBufferPointer(start: data, count: total))
        return accepted ? total : 0
    }

    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, userData in
        let total = size * count
        guard let userData, let data, total > 0 else { return total }
        let accepted = Transfer.from(userData).receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: total))
        return accepted ? total : 0
    }

    /// `CURLOPT_RESOLVER_START_FUNCTION`: libcurl starts resolving the
    /// request's host (not called for a name it has cached). Recorded, so a
    /// timeout before any connection tells resolving from waiting for a
    /// connection (`CurlErrorClassifier.neverConnected`). Returns 0: go on.
    static let resolverStart:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
            _, _, userData in
            if let userData { Transfer.from(userData).resolveStarted = true }
            return 0
        }

    /// `CURLOPT_PREREQFUNCTION`: the connection is up and nothing of the
    /// request has been sent; aborts unless the connection speaks HTTP/2.
    static let prerequest:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int32, Int32
        ) -> Int32 = {
            userData, _, _, _, _ in
            guard let userData else { return 1 }
            return Transfer.from(userData).connectionSpeaksHTTP2() ? 0 : 1
        }

    /// `CURLOPT_OPENSOCKETFUNCTION` (installed under a restricting
    /// `EgressPolicy`): libcurl has resolved the host and asks for a socket
    /// to connect to `address`; a refused address gets none (-1,
    /// `CURL_SOCKET_BAD`), so nothing connects there, and the transfer
    /// records why. The purpose is not read: every socket is checked.
    static let openSocket:
        @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutablePointer<curl_sockaddr>?) -> Int32 = {
            userData, _, address in
            guard let userData, let address, Transfer.from(userData).admitsConnection(to: address) else { return -1 }
            return herald_curl_open_socket(address)
        }
}
