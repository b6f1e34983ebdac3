import HeraldCore

/// Applying inbox actions (responses, resets, GOAWAY, shutdown) and firing delayed responses.
extension ServerEventLoop {
    func apply(_ actions: [LoopAction]) {
        for action in actions {
            switch action {
            case .respond(let connectionID, let streamID, let response, let delay):
                if let delay, delay > .zero {
                    timers.insert(deadline: MonotonicClock.nanoseconds() + MonotonicClock.nanoseconds(delay), (connectionID, streamID, response))
                } else if let connection = connections[connectionID] {
                    connection.submitResponse(streamID: streamID, response)
                    markDirty(connection)
                }
            case .reset(let connectionID, let streamID, let code):
                guard let connection = connections[connectionID] else { continue }
                connection.submitReset(streamID: streamID, code: code)
                markDirty(connection)
            case .goAway(let connectionID, let lastStreamID, let code, let debugData):
                guard let connection = connections[connectionID] else { continue }
                connection.submitGoAway(lastStreamID: lastStreamID, code: code, debugData: debugData)
                markDirty(connection)
            case .shutdown(let graceful):
                beginShutdown(graceful: graceful)
            case .abortConnections:
                for connection in connections.values { connection.close(abort: true) }
                connections.removeAll()
                logger.info("connections aborted")
            }
        }
    }

    private func beginShutdown(graceful: Bool) {
        guard shutdownDeadline == nil else { return }
        if listening {
            epoll.remove(fd: listener.fd)
            listener.close()
            listening = false
        }
        if graceful {
            shutdownDeadline = MonotonicClock.nanoseconds() + MonotonicClock.nanoseconds(configuration.shutdownGracePeriod)
            for connection in connections.values {
                connection.submitGoAway(lastStreamID: connection.lastProcessedStreamID, code: .noError, debugData: [])
                markDirty(connection)
            }
        } else {
            shutdownDeadline = MonotonicClock.nanoseconds()
            for connection in connections.values { connection.close(abort: true) }
            connections.removeAll()
        }
        logger.info("HTTP/2 server shutting down", ["graceful": .bool(graceful)])
    }

    func fireTimers() {
        guard let earliest = timers.earliestDeadline, earliest <= MonotonicClock.nanoseconds() else { return }
        for due in timers.popDue(now: MonotonicClock.nanoseconds()) {
            guard let connection = connections[due.connectionID] else { continue }
            connection.submitResponse(streamID: due.streamID, due.response)
            markDirty(connection)
        }
    }
}
