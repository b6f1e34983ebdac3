import HeraldAMQP
import HeraldCore

/// `herald dead replay`: each chosen dead letter published again to where it came from, then removed.
extension DeadLetterSession {
    func replay(
        _ letters: [DeadLetter], ready: Int, on connection: AMQPConnection,
        acked: inout Set<DeliveryTag>
    ) async throws -> Int32 {
        let chosen = parsed.flags.contains("all") ? letters : try select(parsed.positionals, from: letters)
        var replayed = 0
        var failed = 0
        var refused = 0
        for letter in chosen {
            let message: AMQPMessage
            switch DeadLetterReplay.message(for: letter.delivery, topology: topology, maxReplays: maxReplays) {
            case .success(let copy): message = copy
            case .failure(let refusal):
                refused += 1
                let hint =
                    DeadLetterReplay.replays(of: letter.delivery) >= maxReplays
                    ? "; once its cause is fixed, --max-replays \(maxReplays + 1) allows one more" : ""
                let why = TerminalText.field(refusal.description)
                console.err(
                    "herald dead replay: \(letter.id) refused, it stays in \(topology.deadLetterQueue): \(why)\(hint)")
                continue
            }
            do {
                try await connection.publish(message, mandatory: true)
            } catch let error as AMQPError where !error.isRetryable {
                // This copy will never be accepted (no such exchange, no queue bound): the letter stays.
                failed += 1
                console.err(
                    "herald dead replay: \(letter.id) stays in \(topology.deadLetterQueue): \(ErrorText.forTerminal(error))"
                )
                continue
            } catch {
                throw DeadLetterFailure(
                    "stopped at \(letter.id) after replaying \(replayed): \(error); it and the others"
                        + " not replayed stay in \(topology.deadLetterQueue)")
            }
            do {
                try await connection.ack(letter.delivery)
            } catch {
                throw DeadLetterFailure(
                    "stopped at \(letter.id) after replaying \(replayed): its copy was published to"
                        + " \(message.exchange) but it could not be removed (\(error)); it stays in"
                        + " \(topology.deadLetterQueue), so a later replay sends it again")
            }
            acked.insert(letter.delivery.tag)
            replayed += 1
            console.out("replayed \(letter.id) to \(message.exchange) with routing key \(message.routingKey)")
        }
        console.out(
            "replayed \(replayed) dead letter\(replayed == 1 ? "" : "s")"
                + (refused > 0
                    ? "; \(refused) refused and stay\(refused == 1 ? "s" : "") in \(topology.deadLetterQueue)" : "")
                + (failed > 0 ? "; \(failed) could not be and stay in \(topology.deadLetterQueue)" : ""))
        if parsed.flags.contains("all"), ready > letters.count {
            console.err(
                "herald dead replay: read \(letters.count) of \(ready) dead letters (--limit \(limit)); run it again for the rest"
            )
        }
        return failed + refused > 0 ? ExitStatus.failure : ExitStatus.success
    }
}
