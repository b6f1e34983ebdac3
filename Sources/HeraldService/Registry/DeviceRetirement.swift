import HeraldAMQP
import HeraldCore
import HeraldObservability
import HeraldRegistry

/// Retires the devices not registered again for `registry.expire_after`, a
/// periodic chore of `herald run`: in batches of ``batchSize`` (one
/// transaction each, `RegistryStore.retireDevices`), each device taken off
/// every channel of its app, and one `registry_expired` result per device
/// published to the results exchange (`registry_expired.<provider>.<app>`)
/// so upstream can drop it too. A batch's results are confirmed before the
/// next batch is read.
///
/// With several instances, each retires what the others have not: the
/// store's batch deletes a device only under its lock and only while still
/// unseen, so exactly one instance reports each device. A batch is taken
/// only while the broker is connected; should its results still fail to be
/// published (the connection lost between the commit and the confirm), they
/// are published again after a pause, until shutdown — the devices are
/// already gone, so a result lost then is a device upstream keeps.
struct DeviceRetirement: Sendable {
    /// Devices per transaction.
    static let batchSize = 500
    /// How long a batch's unpublished results wait before they are published again.
    static let republishPause: Duration = .seconds(1)

    let store: any RegistryStore
    /// `registry.expire_after`.
    let expireAfter: Duration
    let connection: AMQPConnection
    let topology: TopologyOptions
    let metrics: HeraldMetrics
    let logger: Logger
    let clock: @Sendable () -> Timestamp

    /// How often the chore runs: a quarter of `expire_after`, between 1 s and
    /// 1 h, so a device is retired at most a quarter late (an hour, for `270d`).
    var period: Duration { min(max(expireAfter / 4, .seconds(1)), .seconds(3600)) }

    /// One run: batches until one comes back short of ``batchSize`` (or
    /// `stopping` says to stop); the number of devices retired.
    @discardableResult
    func run(stopping: @Sendable () -> Bool) async -> Int {
        var total = 0
        while !stopping(), connection.isConnected {
            let now = clock()
            let started = ContinuousClock.now
            let retired: [RetiredDevice]
            do {
                retired = try await store.retireDevices(seenBefore: now + (.zero - expireAfter), limit: Self.batchSize)
                metrics.registryOperations.labels("retire", "ok").increment()
                metrics.registryOperationDuration.labels("retire").observe(ContinuousClock.now - started)
            } catch {
                metrics.registryOperations.labels("retire", "error").increment()
                logger.warning("devices not seen could not be retired", ["error": .string("\(error)")])
                return total
            }
            total += retired.count
            if !retired.isEmpty {
                await publish(retired.map { RegistryResult.expired($0, at: now) }, stopping: stopping)
                logger.notice(
                    "devices not seen retired",
                    ["devices": .int(retired.count), "expire_after": .string("\(expireAfter)")])
            }
            if retired.count < Self.batchSize { break }
        }
        return total
    }

    /// Publishes the batch's results, again after a pause while that fails, until shutdown.
    private func publish(_ results: [RegistryResult], stopping: @Sendable () -> Bool) async {
        let messages = results.map {
            topology.resultMessage(routingKey: $0.routingKey, body: $0.encoded, answering: nil)
        }
        while true {
            do {
                try await connection.publish(messages)
                for result in results { metrics.registryCommands.labels("expire", result.status.rawValue).increment() }
                return
            } catch {
                guard !stopping() else {
                    return logger.error(
                        "registry_expired results not published before shutdown; those devices are already retired",
                        ["devices": .int(results.count), "error": .string("\(error)")])
                }
                logger.warning(
                    "registry_expired results not published; publishing them again",
                    ["devices": .int(results.count), "error": .string("\(error)")])
                try? await Task.sleep(for: Self.republishPause)
            }
        }
    }
}
