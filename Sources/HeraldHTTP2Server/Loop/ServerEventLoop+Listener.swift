import CHeraldShim
import COpenSSL
import Glibc
import HeraldCore
import HeraldSystem
import HeraldTLS

/// The listening socket: accepting connections, the connection cap
/// (`maxConnections`) and the back-off after `accept` runs out of resources
/// (`acceptBackoff`).
///
/// The listener is in the epoll set only while the server may accept: not
/// at the cap, not backing off, not shut down. Level-triggered epoll would
/// otherwise report a pending connection on every wait, and the loop would
/// spin at full CPU without accepting it; out of the set, connections wait
/// in the kernel's listen backlog (1024) until the listener is back.
extension ServerEventLoop {
    func acceptConnections() {
        guard listening else { return }
        for _ in 0..<64 {
            guard connections.count < maxConnections else { return }
            let fd = accept(listener.fd, nil, nil)
            guard fd >= 0 else {
                let code = errno
                switch code {
                case EAGAIN, EWOULDBLOCK:
                    endAcceptBackoffEpisode()
                    return
                // That connection's trouble (it went away, or its network did): the next may be fine.
                case EINTR, ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH,
                    EOPNOTSUPP, ENETUNREACH:
                    continue
                // EMFILE, ENFILE, ENOBUFS, ENOMEM, or anything unforeseen: retrying at once would spin.
                default:
                    backOffAccepting(errno: code)
                    return
                }
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            var ssl: OpaquePointer?
            if let tls {
                OpenSSLErrorQueue.clear()
                guard let created = SSL_new(tls.context) else {
                    logger.error("cannot create a TLS connection", ["openssl": .string(OpenSSLErrorQueue.drain())])
                    Glibc.close(fd)
                    continue
                }
                SSL_set_fd(created, fd)
                SSL_set_accept_state(created)
                ssl = created
            }
            // The protocol (and so the HTTP/2 session and its SETTINGS) comes
            // later: ALPN at the end of the handshake, or the first bytes.
            let now = MonotonicClock.now()
            let connection = ServerConnection(id: nextConnectionID, fd: fd, ssl: ssl, loop: self, now: now)
            nextConnectionID += 1
            guard epoll.add(fd: fd, id: connection.id) else { connection.close(abort: true); continue }
            connections[connection.id] = connection
            let idleDeadline = MonotonicClock.deadline(after: configuration.idleTimeout, from: now)
            scheduleDeadlineCheck(for: connection, at: min(connection.headerDeadline ?? idleDeadline, idleDeadline))
            logger.debug("connection accepted", ["connection": .int(Int(connection.id))])
        }
    }

    /// `maxConnections`, at least 1.
    var maxConnections: Int { max(1, configuration.maxConnections) }

    /// Puts the listener in the epoll set or takes it out, as the server may
    /// accept or not; called after every loop turn (connections closed, the
    /// cap reached, a back-off begun or ended, a shutdown).
    func updateListenerRegistration() {
        let atCap = connections.count >= maxConnections
        let wanted = listening && !acceptBackingOff && !atCap
        if listening, atCap != reportedAtCap {
            reportedAtCap = atCap
            if atCap {
                logger.warning(
                    "connection limit reached; not accepting until a connection closes",
                    ["max_connections": .int(maxConnections)])
            } else {
                logger.info("accepting again: a connection closed", ["max_connections": .int(maxConnections)])
            }
        }
        guard wanted != listenerRegistered else { return }
        if wanted {
            listenerRegistered = epoll.add(fd: listener.fd, id: Self.listenerID)
            if !listenerRegistered {
                logger.error("cannot register the listening socket with epoll", ["errno": .int(Int(errno))])
            }
        } else {
            epoll.remove(fd: listener.fd)
            listenerRegistered = false
        }
    }

    /// `accept` failed for want of resources (or unexpectedly): stop polling
    /// the listener for `acceptBackoff`. Logged once per episode, which
    /// lasts until the backlog is drained (`accept` says EAGAIN): while
    /// descriptors come free one at a time, accepts that succeed between
    /// failures do not start a new one.
    private func backOffAccepting(errno code: Int32) {
        acceptBackingOff = true
        timers.insert(deadline: MonotonicClock.deadline(after: configuration.acceptBackoff), .resumeAccepting)
        if acceptBackoffEpisode == nil {
            acceptBackoffEpisode = (since: MonotonicClock.now(), retries: 0)
            logger.warning(
                "accept failed; not accepting for a while, connections wait in the listen backlog",
                [
                    "error": .string(String(cString: strerror(code))), "errno": .int(Int(code)),
                    "open_connections": .int(connections.count),
                    "retry_after_ms": .int(Int(MonotonicClock.nanoseconds(configuration.acceptBackoff) / 1_000_000)),
                ])
        } else {
            acceptBackoffEpisode?.retries += 1
        }
    }

    /// The backlog is drained: the episode, if any, is over.
    private func endAcceptBackoffEpisode() {
        guard let episode = acceptBackoffEpisode else { return }
        acceptBackoffEpisode = nil
        logger.info(
            "accepting again after accept failures",
            [
                "backed_off_ms": .int(Int((MonotonicClock.now() - episode.since) / 1_000_000)),
                "retries": .int(episode.retries),
            ])
    }
}
