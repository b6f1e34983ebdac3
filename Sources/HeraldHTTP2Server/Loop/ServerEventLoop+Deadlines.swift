import HeraldSystem

/// Each connection's deadlines — `headerTimeout`, `idleTimeout`, the close
/// after its last frame — checked by one timer per connection.
///
/// A connection never has more than one live `.checkDeadlines` timer
/// (`ServerConnection.scheduledCheckAt`): a read only moves
/// `lastActivityAt`, and the check, when it fires, looks at where the
/// connection stands and schedules the next one. A timer left in the heap
/// by an earlier schedule is stale and does nothing.
extension ServerEventLoop {
    /// Makes sure the connection is checked no later than `deadline`.
    func scheduleDeadlineCheck(for connection: ServerConnection, at deadline: UInt64) {
        if let scheduled = connection.scheduledCheckAt, scheduled <= deadline { return }
        connection.scheduledCheckAt = deadline
        timers.insert(deadline: deadline, .checkDeadlines(connectionID: connection.id, at: deadline))
    }

    func checkDeadlines(connectionID: UInt64, scheduledAt: UInt64) {
        guard let connection = connections[connectionID], connection.scheduledCheckAt == scheduledAt else { return }
        connection.scheduledCheckAt = nil
        let now = MonotonicClock.now()
        switch connection.deadlineCheck(now: now, idleTimeout: MonotonicClock.nanoseconds(configuration.idleTimeout)) {
        case nil:
            break
        case .close(let reason):
            drop(connection, reason: reason)
        case .goAwayIdle:
            connection.submitGoAway(lastStreamID: connection.lastProcessedStreamID, code: .noError, debugData: [])
            connection.closeAfterLastFrame(now: now)
            markDirty(connection)
            logger.debug("idle connection: GOAWAY(NO_ERROR)", ["connection": .int(Int(connection.id))])
        case .checkAgain(let at):
            scheduleDeadlineCheck(for: connection, at: at)
        }
    }
}
