import HeraldCore
import HeraldSystem

extension ConnectionLoop {
    /// Serves one live connection: frames in, commands out, until it dies or shuts down.
    func serve() -> Exit {
        guard let connection else {
            return .lost(AMQPError(.connectionLost, operation: "serve", isRetryable: true))
        }
        let replay = deferred
        deferred.removeAll()
        if let error = execute(replay, on: connection) { return .lost(error) }
        if let error = flushAcks(connection) { return .lost(error) }
        let idleWait = pollInterval(heartbeat: connection.heartbeatSeconds)
        var wake = Mailbox.Wake.socketReadable
        var pacing = LoopPacing(window: configuration.pacingWindow)
        while true {
            var foundWork = wake != .timeout && wake != .nothingNew
            // Woken by commands alone (or after a nap that found nothing), the socket
            // has nothing: skip the read, which costs a recv and a poll to find that
            // out. A timeout still reads, since reading is also when rabbitmq-c
            // sends heartbeats that are due.
            if (wake != .commandsOnly && wake != .nothingNew) || connection.hasBufferedInput {
                if let error = readFrames(connection) { return .lost(error) }
            }
            connection.releaseBuffersIfIdle()
            let commands = mailbox.drain()
            if !commands.isEmpty { foundWork = true }
            if let error = execute(commands, on: connection) { return .lost(error) }
            if let error = flushAcksIfDue(connection) { return .lost(error) }
            if let error = flushOutbox(connection) { return .lost(error) }
            if shutdownRequested {
                if shutdownDeadline == nil { beginShutdown(connection) }
                let drained = confirms.inFlight == 0 && outboxIsEmpty
                if drained || ContinuousClock.now >= (shutdownDeadline ?? .now) { return .shutdown }
            }
            if connection.hasBufferedInput { continue }
            var wait = shutdownRequested ? .milliseconds(20) : idleWait
            if let deadline = ackDeadline { wait = min(wait, max(.milliseconds(1), deadline - .now)) }
            if let nap = pacing.nap(foundWork: foundWork, limit: wait) {
                wake = mailbox.nap(nap, socket: connection.socketFD)
            } else {
                wake = mailbox.wait(socket: connection.socketFD, timeout: wait)
            }
            pacing.passBegins()
        }
    }

    /// Runs `commands` in order until one finds the connection broken. The
    /// ones after it go back to the mailbox: once the connection is torn down,
    /// the loop takes them as it takes every command while disconnected (a
    /// publish waits for the next connection, a settlement is refused as stale,
    /// an admin command or a consume is run on the next connection), so none
    /// is left waiting forever.
    private func execute(_ commands: [Command], on connection: RabbitConnection) -> AMQPError? {
        for (index, command) in commands.enumerated() {
            if let error = execute(command, on: connection) {
                mailbox.putBack(commands[(index + 1)...])
                return error
            }
        }
        return nil
    }

    /// Short enough that our heartbeats go out on time even when nothing else happens.
    private func pollInterval(heartbeat: Int) -> Duration {
        guard heartbeat > 0 else { return .seconds(1) }
        return min(.seconds(1), .milliseconds(heartbeat * 250))
    }

    /// Handles the frames that are readable now (at most `framesPerTurn`).
    private func readFrames(_ connection: RabbitConnection) -> AMQPError? {
        for _ in 0..<Self.framesPerTurn {
            switch connection.readFrame(timeout: .zero) {
            case .timeout:
                return nil
            case .failed(let error):
                return error
            case .frame(let frame):
                if let error = handle(frame, on: connection) { return error }
                // Nothing left in rabbitmq-c's buffer: the socket is most likely
                // drained too. Asking would cost a recv and a poll that find nothing
                // (two system calls a turn, most turns at moderate rates); if more
                // did arrive, the next poll says so.
                if !connection.hasBufferedInput { return nil }
            }
        }
        return nil
    }

    /// Sends queued publishes while the confirm window has room.
    private func flushOutbox(_ connection: RabbitConnection) -> AMQPError? {
        // A blocked connection (broker memory or disk alarm) would block the socket
        // write, and with it heartbeats and acks: hold publishes until unblocked.
        if blocked { return nil }
        // Everything the confirm window admits goes out in one write (`publishBatch`).
        var batch: [(message: AMQPMessage, mandatory: Bool)] = []
        while outboxHead < outbox.count && confirms.inFlight < configuration.confirmWindow {
            let outgoing = outbox[outboxHead]
            outboxHead += 1
            // A message the encoder would refuse fails alone, before anything is written.
            if let problem = outgoing.message.encodingProblem(frameMax: connection.frameMax) {
                outgoing.waiter.resume(
                    throwing: AMQPError(
                        .invalidMessage, operation: "basic.publish \(outgoing.message.exchange)", detail: problem,
                        isRetryable: false))
                continue
            }
            let key =
                outgoing.mandatory
                ? ConfirmTracker<PublishWaiter>.ReturnKey(
                    exchange: outgoing.message.exchange,
                    routingKey: outgoing.message.routingKey, body: outgoing.message.body)
                : nil
            _ = confirms.register(outgoing.waiter, exchange: outgoing.message.exchange, returnKey: key)
            batch.append((outgoing.message, outgoing.mandatory))
        }
        if !batch.isEmpty {
            do throws(AMQPError) {
                try connection.publishBatch(Self.publishChannel, batch)
            } catch {
                return error
            }
        }
        if outboxHead > 1024 && outboxHead * 2 > outbox.count {
            outbox.removeFirst(outboxHead)
            outboxHead = 0
        } else if outboxIsEmpty {
            outbox.removeAll(keepingCapacity: true)
            outboxHead = 0
        }
        return nil
    }

    /// Stops consuming (no new deliveries), lets acks and confirms finish for the grace period.
    private func beginShutdown(_ connection: RabbitConnection) {
        shutdownDeadline = .now + configuration.shutdownGracePeriod
        for registration in consumers.values {
            try? connection.cancel(Self.consumeChannel, tag: registration.spec.tag)
            registration.stream.finish()
        }
        consumers.removeAll()
        for command in deferred { command.fail(Self.shutdownError("connection")) }
        deferred.removeAll()
        logger.info(
            "amqp shutting down",
            [
                "unconfirmed": .int(confirms.inFlight),
                "unsettled_deliveries": .int(deliveries.count),
            ])
    }
}
