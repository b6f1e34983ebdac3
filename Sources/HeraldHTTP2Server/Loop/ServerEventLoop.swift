import CHeraldShim
import COpenSSL
import Glibc
import HeraldCore
import HeraldSystem

/// The server's event loop: one thread, one epoll set, every connection.
///
/// It owns the `SSL_CTX`, each `SSL`, each nghttp2 session and every socket;
/// nothing else touches them. Other threads reach it only through the
/// `ServerInbox` (actions + eventfd).
final class ServerEventLoop {
    static let listenerID: UInt64 = 0
    private static let inboxID: UInt64 = 1

    let maxRequestBodyBytes: Int
    let configuration: HTTP2ServerConfiguration
    let epoll: Epoll
    let listener: ListeningSocket
    let inbox: ServerInbox
    let tls: TLSServerContext?
    let callbacks: SessionCallbacks
    let handler: any HTTP2Handler
    let logger: Logger

    var connections: [UInt64: ServerConnection] = [:]
    var nextConnectionID: UInt64 = 2
    var timers = TimerHeap<LoopTimer>()
    var dirty: [ServerConnection] = []
    /// Connections whose TLS layer still holds input after their turn's reads
    /// (`hasBufferedInput`): read again before the loop sleeps.
    var readAgain: [UInt64] = []
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// Until shutdown begins.
    var listening = true
    /// Whether the listening socket is in the epoll set (`updateListenerRegistration`).
    var listenerRegistered = false
    /// After `accept` ran out of resources, until the `.resumeAccepting` timer.
    var acceptBackingOff = false
    /// Since when `accept` has been failing, and how often it was retried; nil once the backlog is drained.
    var acceptBackoffEpisode: (since: UInt64, retries: Int)?
    /// Whether the last log line about the connection cap said it was reached.
    var reportedAtCap = false
    var shutdownDeadline: UInt64?

    init(
        configuration: HTTP2ServerConfiguration, listener: ListeningSocket, inbox: ServerInbox,
        handler: any HTTP2Handler, logger: Logger
    ) throws(HTTP2ServerError) {
        self.configuration = configuration
        self.maxRequestBodyBytes = configuration.maxRequestBodyBytes
        self.listener = listener
        self.inbox = inbox
        self.handler = handler
        self.logger = logger
        epoll = try Epoll()
        tls = try configuration.tls.map { config throws(HTTP2ServerError) in try TLSServerContext(config) }
        callbacks = try SessionCallbacks(streamResetLimit: configuration.streamResetLimit)
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    /// Runs until a shutdown action has been applied and every connection is closed.
    func run() {
        guard epoll.add(fd: listener.fd, id: Self.listenerID), epoll.add(fd: inbox.eventFD, id: Self.inboxID) else {
            logger.error("cannot register with epoll", ["errno": .int(Int(errno))])
            finish()
            return
        }
        listenerRegistered = true
        logger.info("HTTP/2 server listening", ["port": .int(listener.port), "tls": .bool(tls != nil)])
        while true {
            let timeout = inbox.prepareToSleep() && readAgain.isEmpty ? timeoutMilliseconds() : 0
            let ready = epoll.wait(timeoutMilliseconds: timeout)
            apply(inbox.wakeAndTake())
            let buffered = readAgain
            readAgain.removeAll(keepingCapacity: true)
            for index in 0..<ready {
                let event = epoll.event(at: index)
                handleEvent(id: event.id, readable: event.readable, writable: event.writable, hangup: event.hangup)
            }
            for id in buffered where !readAgain.contains(id) {
                handleEvent(id: id, readable: true, writable: false, hangup: false)
            }
            apply(inbox.take())
            fireTimers()
            flushDirty()
            updateListenerRegistration()
            if let deadline = shutdownDeadline {
                if connections.isEmpty { break }
                if MonotonicClock.now() >= deadline {
                    for connection in connections.values { connection.close(abort: true) }
                    connections.removeAll()
                    break
                }
            }
        }
        finish()
    }

    private func finish() {
        for connection in connections.values { connection.close(abort: false) }
        connections.removeAll()
        timers.removeAll()
        inbox.close()
        listener.close()
        logger.info("HTTP/2 server stopped", ["port": .int(listener.port)])
    }

    private func timeoutMilliseconds() -> Int32 {
        var earliest = timers.earliestDeadline
        if let deadline = shutdownDeadline { earliest = min(earliest ?? deadline, deadline) }
        guard let earliest else { return -1 }
        let now = MonotonicClock.now()
        guard earliest > now else { return 0 }
        return Int32(min((earliest - now + 999_999) / 1_000_000, 60_000))
    }

    private func handleEvent(id: UInt64, readable: Bool, writable: Bool, hangup: Bool) {
        switch id {
        case Self.listenerID: acceptConnections()
        case Self.inboxID: break
        default:
            guard let connection = connections[id] else { return }
            if writable, case .closed(let reason) = connection.handleWritable() {
                return drop(connection, reason: reason)
            }
            if readable || hangup {
                if case .closed(let reason) = connection.handleReadable(buffer: readBuffer, hangup: hangup) {
                    // Answer what was read before the peer closed its side, then close.
                    _ = connection.flush()
                    return drop(connection, reason: reason)
                }
                if connection.hasBufferedInput, connection.wantsRead, !readAgain.contains(id) { readAgain.append(id) }
            }
            markDirty(connection)
        }
    }

    func markDirty(_ connection: ServerConnection) {
        guard !connection.isDirty else { return }
        connection.isDirty = true
        dirty.append(connection)
    }

    private func flushDirty() {
        guard !dirty.isEmpty else { return }
        let pending = dirty
        dirty.removeAll(keepingCapacity: true)
        for connection in pending {
            connection.isDirty = false
            guard !connection.isClosed, connections[connection.id] != nil else { continue }
            if case .closed(let reason) = connection.flush() {
                drop(connection, reason: reason)
                continue
            }
            let readable = connection.wantsRead
            if connection.writeInterest != connection.registeredWritable || readable != connection.registeredReadable {
                _ = epoll.modify(
                    fd: connection.fd, id: connection.id, readable: readable, writable: connection.writeInterest)
                connection.registeredWritable = connection.writeInterest
                connection.registeredReadable = readable
            }
            // An HTTP/1.1 connection reading again may have TLS records read ahead, which epoll cannot see.
            if readable, connection.hasBufferedInput, !readAgain.contains(connection.id) {
                readAgain.append(connection.id)
            }
        }
    }

    /// Hands a complete request (an HTTP/2 stream or an HTTP/1.1 request) to the handler.
    func deliver(_ request: HTTP2Request) {
        handler.handle(
            request,
            responder: HTTP2Responder(inbox: inbox, connectionID: request.connectionID, streamID: request.streamID))
    }

    /// Closes a lingering connection after `lingerTimeout` if its client has not closed by then.
    func scheduleLingerTimeout(for connection: ServerConnection) {
        let deadline = MonotonicClock.deadline(after: configuration.lingerTimeout)
        timers.insert(deadline: deadline, .endLinger(connectionID: connection.id))
    }

    func drop(_ connection: ServerConnection, reason: String) {
        epoll.remove(fd: connection.fd)
        connection.close(abort: false)
        connections.removeValue(forKey: connection.id)
        logger.debug(
            "connection closed",
            [
                "connection": .int(Int(connection.id)), "reason": .string(reason),
                "protocol": .string(connection.http1 != nil ? "http/1.1" : connection.session != nil ? "h2" : "none"),
                "requests": .int(connection.requestCount), "resets_received": .int(connection.resetsReceived),
                "unanswered_resets_received": .int(connection.unansweredResetsReceived),
                "goaway_sent_code": .int(connection.goAwaySentCode.map { Int($0) } ?? -1),
            ])
    }
}
