import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldPipeline
import HeraldRegistry

extension LoadedConfig {
    /// The broker connection the `amqp:` section describes (its addresses, each
    /// with its TLS files; heartbeat, ack delay), paced by `io_pacing`.
    ///
    /// Every address is parsed by `AMQPURL`, the one rule for what an AMQP
    /// address is: `herald check` calls this too, so it refuses exactly what
    /// `herald run` would.
    /// - Throws: `AMQPAddressError` naming every address `AMQPURL` refuses.
    public func amqpConfiguration(connectionName: String = "herald") throws(AMQPAddressError) -> AMQPConfiguration {
        let amqp = configuration.amqp
        var addresses: [AMQPAddress] = []
        var problems: [AMQPAddressError.Problem] = []
        for (index, address) in amqp.addresses.enumerated() {
            let files = amqp.withTLSFiles(address)
            let tls = AMQPTLSOptions(
                caFile: files.caFile.map(resolve), certificateFile: files.certFile.map(resolve),
                keyFile: files.keyFile.map(resolve))
            do {
                addresses.append(AMQPAddress(try AMQPURL(address.url), tls: tls))
            } catch {
                problems.append(
                    .init(
                        path: amqp.urlKey(index, in: .root.key("amqp")), shown: URLSecrets.redacted(address.url),
                        reason: error.detail))
            }
        }
        guard problems.isEmpty, let first = addresses.first else { throw AMQPAddressError(problems: problems) }
        var configuration = AMQPConfiguration(
            url: first.url, heartbeat: amqp.heartbeat.duration, connectionName: connectionName)
        configuration.addresses = addresses
        configuration.shuffleURLs = amqp.shuffle
        configuration.ackDelay = amqp.ackDelay.duration
        configuration.pacingWindow = self.configuration.ioPacing.duration
        return configuration
    }

    /// The exchanges and queues Herald declares: names from `amqp:`, one delay
    /// queue per jitter slot of each `retry.delays` entry
    /// (`RetryPolicy.queueDelays`), and with a `registry:` section the
    /// registry commands' exchange and queue.
    public var topology: TopologyOptions {
        let amqp = configuration.amqp
        let retry = configuration.retry
        let tiers = retry.delays.isEmpty ? [] : RetryPolicy(settings: retry).queueDelays.map { RetryTier(delay: $0) }
        var topology = TopologyOptions(
            queueType: amqp.queueType == .quorum ? .quorum : .classic, bindings: amqp.bindings,
            deliveryLimit: amqp.deliveryLimit,
            consumerTimeout: amqp.consumerTimeout.milliseconds == 0 ? nil : amqp.consumerTimeout.duration,
            retryTiers: tiers)
        topology.eventsExchange = amqp.eventsExchange
        topology.eventsQueue = amqp.queue
        topology.retryExchange = amqp.retryExchange
        topology.retryQueuePrefix = amqp.retryExchange
        topology.deadLetterExchange = amqp.deadLetterExchange
        topology.deadLetterQueue = amqp.deadLetterQueue
        topology.resultsExchange = amqp.resultsExchange
        topology.userID = amqpUsers.first
        if configuration.registry != nil {
            topology.registryCommands = RegistryCommandTopology(
                exchange: amqp.registryExchange, queue: amqp.registryQueue,
                routingKeys: RegistryCommand.Kind.allCases.map(\.rawValue))
        }
        return topology
    }
}

extension LoadedConfig {
    /// The AMQP users Herald's addresses authenticate as, in address order
    /// (one, when every address names the same user, as it should): the
    /// first is the `user-id` of what Herald republishes, and each is a
    /// publisher of every app (Herald's retries come back as events).
    public var amqpUsers: [String] {
        var users: [String] = []
        for address in configuration.amqp.addresses {
            guard let user = try? AMQPURL(address.url).user, !users.contains(user) else { continue }
            users.append(user)
        }
        return users
    }
}

/// Addresses in `amqp.url` or `amqp.urls` that `AMQPURL` refuses, each named
/// by where it is written, so `herald check` and `herald run` report the same
/// lines for the same config.
public struct AMQPAddressError: Error, Sendable, CustomStringConvertible {
    /// One refused address.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Where it is written: `amqp.url`, `amqp.urls[i]` or `amqp.urls[i].url`.
        public let path: ConfigPath
        /// The address as written, its password masked (`URLSecrets`).
        public let shown: String
        /// What `AMQPURL` found wrong.
        public let reason: String

        public var description: String { "\(path): '\(shown.truncatedForMessage)' is not a usable AMQP URL: \(reason)" }
    }

    /// Never empty.
    public let problems: [Problem]

    /// One line per refused address.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
