import CHeraldShim
import CNGHTTP2
import Glibc
import HeraldSystem

/// What nghttp2 and the sockets report: data, stream ends, GOAWAY, failed
/// and lost connections, deadlines, and the stop.
extension H2ClientLoop {
    /// One response header field (trailers included); past
    /// `maxResponseHeaderBytes` in total the stream is reset and the request fails.
    func receiveHeader(
        _ session: OpaquePointer, streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
        on connection: H2Connection
    ) {
        guard let stream = connection.streams[streamID], !stream.isDone, !stream.limitExceeded else { return }
        stream.headerBytes += name.count + value.count
        guard stream.headerBytes <= configuration.maxResponseHeaderBytes else {
            stream.limitExceeded = true
            _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_CANCEL.rawValue)
            connection.needsFlush = true
            finish(
                stream,
                .failure(.responseHeadersTooLarge(host: stream.host, limit: configuration.maxResponseHeaderBytes)))
            return
        }
        stream.receiveHeader(name: name, value: value)
    }

    func receiveData(
        _ session: OpaquePointer, streamID: Int32, _ data: UnsafeBufferPointer<UInt8>, on connection: H2Connection
    ) {
        guard let stream = connection.streams[streamID], !stream.isDone, !stream.limitExceeded else { return }
        guard stream.body.count + data.count <= configuration.maxResponseBodyBytes else {
            stream.limitExceeded = true
            _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_CANCEL.rawValue)
            connection.needsFlush = true
            finish(
                stream, .failure(.responseBodyTooLarge(host: stream.host, limit: configuration.maxResponseBodyBytes)))
            return
        }
        stream.body.append(contentsOf: data)
    }

    func streamClosed(_ streamID: Int32, errorCode: UInt32, on connection: H2Connection) {
        guard let stream = connection.streams.removeValue(forKey: streamID) else { return }
        connection.lastActivity = MonotonicClock.now()
        if !connection.firstStreamEnded {
            connection.firstStreamEnded = true
            connection.origin.learned(connection.streamLimit(configuration.maxConcurrentStreamsPerConnection))
        }
        markForDispatch(connection.origin)
        guard !stream.isDone else { return }
        if errorCode == NGHTTP2_NO_ERROR.rawValue && stream.status > 0 {
            finish(
                stream,
                .success(
                    HTTPClientResponse(
                        status: stream.status, headers: stream.headers, body: stream.body, httpVersion: 2)))
            return
        }
        if errorCode == NGHTTP2_REFUSED_STREAM.rawValue && stream.status == 0 && stream.refusals < Self.maxRefusals {
            // Not processed by the server (RFC 9113 §8.7): safe to send again, on another stream.
            stream.refusals += 1
            stream.bodyOffset = 0
            stream.headers = []
            stream.headerBytes = 0
            stream.body = []
            connection.origin.requeue(stream)
            return
        }
        let reason =
            errorCode == NGHTTP2_NO_ERROR.rawValue
            ? "the stream ended without a complete response"
            : "the server reset the stream (\(String(cString: nghttp2_http2_strerror(errorCode))))"
        finish(
            stream,
            .failure(HTTPClientError(kind: .connectionLost, host: stream.host, message: reason, requestWritten: true)))
    }

    /// The server's stream limit is known, or changed: queued requests may
    /// start. A limit raised after the first stream ended (APNs raises it once
    /// it accepted a provider token, possibly after answering) is what the
    /// origin's warming connections will reach.
    func settingsReceived(on connection: H2Connection) {
        connection.settingsReceived = true
        if connection.firstStreamEnded {
            connection.origin.learned(connection.streamLimit(configuration.maxConcurrentStreamsPerConnection))
        }
        markForDispatch(connection.origin)
    }

    func goAwayReceived(on connection: H2Connection, errorCode: UInt32) {
        connection.goAwayReceived = true
        let error = String(cString: nghttp2_http2_strerror(errorCode))
        statistics.goAwayReceived(host: connection.origin.hostAndPort, error: error)
        logger.debug(
            "HTTP/2 GOAWAY received",
            [
                "host": .string(connection.origin.hostAndPort),
                "error": .string(error),
            ])
        markForDispatch(connection.origin)
    }

    /// A connection that never opened: its origin's queued requests fail with
    /// `error` unless another connection there is open or on its way.
    func connectionFailed(_ connection: H2Connection, _ error: HTTPClientError) {
        let origin = connection.origin
        drop(connection)
        logger.debug("HTTP/2 connection failed", ["host": .string(error.host), "kind": .string(error.kind.rawValue)])
        if origin.connections.contains(where: { $0.state != .closed && !$0.goAwayReceived }) {
            // The others carry the queued requests; housekeeping retries the connect later.
            origin.connectBackoffUntil = MonotonicClock.now() + Self.connectBackoff
            return
        }
        for stream in origin.drainQueue() { finish(stream, .failure(error)) }
    }

    /// An open connection that died: its streams fail retryably; queued requests get a new connection.
    func connectionLost(_ connection: H2Connection, _ reason: String) {
        let streams = connection.streams.values
        for stream in streams where !stream.isDone {
            finish(
                stream,
                .failure(
                    HTTPClientError(
                        kind: .connectionLost, host: stream.host, message: "the connection was lost: \(reason)",
                        requestWritten: true)))
        }
        logger.debug(
            "HTTP/2 connection lost", ["host": .string(connection.origin.hostAndPort), "reason": .string(reason)])
        let origin = connection.origin
        drop(connection)
        markForDispatch(origin)
    }

    /// Closes a connection that has nothing left to do (GOAWAY'd and idle, or idle too long).
    func retire(_ connection: H2Connection) {
        if let session = connection.session, connection.state == .open, !connection.goAwayReceived {
            _ = nghttp2_session_terminate_session(session, NGHTTP2_NO_ERROR.rawValue)
            _ = connection.flush()
        }
        drop(connection)
    }

    private func drop(_ connection: H2Connection) {
        if connection.fd >= 0 { _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, connection.fd, nil) }
        connections.removeValue(forKey: connection.id)
        connection.origin.remove(connection)
        connection.close()
    }

    /// Deadlines of requests and connects, idle connections, keep-alive PINGs.
    func housekeeping(_ now: UInt64) {
        for stream in active.values where stream.deadline <= now {
            let waited = stream.connection == nil ? " waiting for a connection or stream" : ""
            let error = HTTPClientError(
                kind: .timeout, host: stream.host, message: "no response within \(stream.timeout)\(waited)",
                requestWritten: stream.connection != nil)
            finish(stream, .failure(error))
            resetOnWire(stream)
        }
        for origin in origins.values where origin.hasQueued { markForDispatch(origin) }
        retireIdleExtras(now)
        let keepAlive = MonotonicClock.nanoseconds(configuration.keepAliveInterval)
        let maxIdle = MonotonicClock.nanoseconds(configuration.maxIdleConnectionAge)
        for connection in connections.values {
            switch connection.state {
            case .resolving, .connecting, .handshaking:
                if now >= connection.connectDeadline {
                    connectionFailed(
                        connection,
                        HTTPClientError(
                            kind: .timeout, host: connection.origin.hostAndPort,
                            message: "no connection within \(configuration.connectTimeout)"))
                }
            case .open:
                guard connection.streams.isEmpty else { continue }
                if let sentAt = connection.pingSentAt, now - sentAt > keepAlive {
                    connectionLost(connection, "no answer to a keep-alive PING")
                } else if now - connection.lastActivity > maxIdle {
                    retire(connection)
                } else if connection.pingSentAt == nil,
                    now - max(connection.lastActivity, connection.lastPingAt) > keepAlive,
                    let session = connection.session,
                    nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil) == 0
                {
                    connection.pingSentAt = now
                    connection.lastPingAt = now
                    connection.needsFlush = true
                }
            case .closed:
                break
            }
        }
        publishStatistics()
    }

    /// Closes each origin's open connections that carried no stream for
    /// `extraConnectionIdleTimeout`, keeping one: the oldest, which requests
    /// fill first.
    private func retireIdleExtras(_ now: UInt64) {
        let timeout = MonotonicClock.nanoseconds(configuration.extraConnectionIdleTimeout)
        for origin in origins.values where origin.connections.count > 1 {
            let open = origin.connections.filter { $0.state == .open && !$0.goAwayReceived }
            guard open.count > 1 else { continue }
            let idle = open.filter { $0.streams.isEmpty && now - $0.lastActivity > timeout }
            // Keep the first open connection if every one is idle.
            for connection in idle.count == open.count ? Array(idle.dropFirst()) : idle {
                logger.debug("HTTP/2 idle extra connection closed", ["host": .string(origin.hostAndPort)])
                retire(connection)
            }
        }
    }

    /// Publishes what each origin's pool holds now (`HTTPClient.statistics`).
    func publishStatistics() {
        statistics.update(
            origins.values.map { origin in
                var pool = HTTPConnectionPoolStatistics(host: origin.hostAndPort)
                for connection in origin.connections where connection.state == .open {
                    pool.connections += 1
                    pool.streams += connection.streams.count
                    pool.busiestConnection = max(pool.busiestConnection, connection.streams.count)
                }
                pool.waiting = origin.queue.count - origin.queueHead
                return pool
            })
    }

    func stop() {
        let leftovers = queue.detach()
        executor.loopStopped()
        for stream in active.values {
            completions.add(stream.pending, .failure(shutdownError(stream.request.url)))
        }
        active.removeAll()
        for submission in waiting.drain() + leftovers.submissions {
            submission.pending.finish(.failure(shutdownError(submission.request.url)))
        }
        for connection in Array(connections.values) { retire(connection) }
        statistics.update([])
        completions.deliver()
        for job in leftovers.jobs { executor.run(job) }
        logger.debug("HTTP client loop stopped", ["passes": .int(passes), "sleeps": .int(sleeps), "naps": .int(naps)])
    }

    private func shutdownError(_ url: String) -> HTTPClientError {
        HTTPClientError(kind: .shutdown, host: URLHost.hostAndPort(of: url), message: "the HTTP client was shut down")
    }
}
