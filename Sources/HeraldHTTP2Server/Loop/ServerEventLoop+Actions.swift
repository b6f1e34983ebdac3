import HeraldCore
import HeraldSystem

/// Applying inbox actions (responses, resets, GOAWAY, stream limits, shutdown) and firing timers.
extension ServerEventLoop {
    func apply(_ actions: [LoopAction]) {
        for action in actions {
            switch action {
            case .respond(let connectionID, let streamID, let response, let delay):
                if let delay, delay > .zero {
                    timers.insert(
                        deadline: MonotonicClock.deadline(after: delay),
                        .respond(connectionID: connectionID, streamID: streamID, response: response))
                } else if let connection = connections[connectionID] {
                    connection.answer(streamID: streamID, response)
                    markDirty(connection)
                }
            case .reset(let connectionID, let streamID, let code):
                guard let connection = connections[connectionID] else { continue }
                connection.reset(streamID: streamID, code: code)
                markDirty(connection)
            case .goAway(let connectionID, let lastStreamID, let code, let debugData):
                guard let connection = connections[connectionID] else { continue }
                connection.goAway(lastStreamID: lastStreamID, code: code, debugData: debugData)
                markDirty(connection)
            case .setMaxConcurrentStreams(let connectionID, let limit):
                guard let connection = connections[connectionID] else { continue }
                connection.setMaxConcurrentStreams(limit)
                markDirty(connection)
            case .shutdown(let graceful):
                beginShutdown(graceful: graceful)
            case .abortConnections:
                for connection in connections.values { connection.close(abort: true) }
                connections.removeAll()
                logger.info("connections aborted")
            case .abortConnection(let connectionID):
                connections.removeValue(forKey: connectionID)?.close(abort: true)
            }
        }
    }

    private func beginShutdown(graceful: Bool) {
        guard shutdownDeadline == nil else { return }
        if listening {
            listening = false
            updateListenerRegistration()
            listener.close()
        }
        if graceful {
            shutdownDeadline = MonotonicClock.deadline(after: configuration.shutdownGracePeriod)
            for connection in Array(connections.values) {
                if connection.beginGracefulClose() {
                    markDirty(connection)
                } else {
                    drop(connection, reason: "shutdown before the protocol was known")
                }
            }
        } else {
            shutdownDeadline = MonotonicClock.now()
            for connection in connections.values { connection.close(abort: true) }
            connections.removeAll()
        }
        logger.info("HTTP/2 server shutting down", ["graceful": .bool(graceful)])
    }

    func fireTimers() {
        guard let earliest = timers.earliestDeadline, earliest <= MonotonicClock.now() else { return }
        for due in timers.popDue(now: MonotonicClock.now()) {
            switch due {
            case .respond(let connectionID, let streamID, let response):
                guard let connection = connections[connectionID] else { continue }
                connection.answer(streamID: streamID, response)
                markDirty(connection)
            case .endLinger(let connectionID):
                guard let connection = connections[connectionID] else { continue }
                drop(connection, reason: "closed after the last answer (the client did not close)")
            case .checkDeadlines(let connectionID, let at):
                checkDeadlines(connectionID: connectionID, scheduledAt: at)
            case .resumeAccepting:
                acceptBackingOff = false
            }
        }
    }
}
