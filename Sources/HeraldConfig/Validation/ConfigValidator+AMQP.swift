import HeraldCore
import HeraldProviderKit

extension ConfigValidator {
    /// The addresses themselves are not checked here: `AMQPURL` (HeraldAMQP)
    /// is the one parser that decides, and the commands ask it right after
    /// loading (`LoadedConfig.amqpConfiguration()`).
    func validateAMQP(_ amqp: AMQPSettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        checks.checkRange(amqp.prefetch, 1...65535, at: path.key("prefetch"), into: &issues)
        checks.checkRange(amqp.concurrency, 1...65535, at: path.key("concurrency"), into: &issues)
        checks.checkRange(amqp.deliveryLimit, 1...1000, at: path.key("delivery_limit"), into: &issues)
        let names: [(String, String)] = [
            ("queue", amqp.queue), ("events_exchange", amqp.eventsExchange), ("retry_exchange", amqp.retryExchange),
            ("dead_letter_exchange", amqp.deadLetterExchange), ("dead_letter_queue", amqp.deadLetterQueue),
            ("results_exchange", amqp.resultsExchange), ("registry_exchange", amqp.registryExchange),
            ("registry_queue", amqp.registryQueue),
        ]
        for (key, name) in names where name.isEmpty || name.utf8.count > 255 || name.hasPrefix("amq.") {
            issues.append(
                .init(
                    .error, at: path.key(key),
                    "'\(name.truncatedForMessage)' is not a usable name (1 to 255 bytes, not starting with 'amq.', which RabbitMQ reserves)"
                ))
        }
        // The registry's exchange bound as another would route commands and events into each other's queues.
        let others: [(String, String, String)] = [
            ("registry_exchange", amqp.registryExchange, "events_exchange"),
            ("registry_exchange", amqp.registryExchange, "retry_exchange"),
            ("registry_exchange", amqp.registryExchange, "dead_letter_exchange"),
            ("registry_exchange", amqp.registryExchange, "results_exchange"),
            ("registry_queue", amqp.registryQueue, "queue"),
            ("registry_queue", amqp.registryQueue, "dead_letter_queue"),
        ]
        for (key, name, other) in others where names.contains(where: { $0.0 == other && $0.1 == name }) {
            issues.append(
                .init(
                    .error, at: path.key(key),
                    "'\(name.truncatedForMessage)' is also amqp.\(other); give registry commands names of their own"))
        }
        if amqp.bindings.isEmpty {
            issues.append(
                .init(
                    .error, at: path.key("bindings"),
                    "no bindings: the queue would receive no events (use [\"#\"] for all)"))
        }
        if amqp.heartbeat.milliseconds != 0 && !(1000...65_535_000).contains(amqp.heartbeat.milliseconds) {
            issues.append(
                .init(
                    .error, at: path.key("heartbeat"),
                    "expected 0 (off) or 1s to 65535s (AMQP carries it in 16 bits), found \(amqp.heartbeat)"))
        }
        if amqp.ackDelay.milliseconds > 1000 {
            issues.append(.init(.error, at: path.key("ack_delay"), "expected 0 (off) to 1s, found \(amqp.ackDelay)"))
        }
        validateTLSFiles(caFile: amqp.caFile, certFile: amqp.certFile, keyFile: amqp.keyFile, at: path, into: &issues)
        if amqp.caFile != nil || amqp.certFile != nil, !amqp.addresses.contains(where: { $0.url.hasPrefix("amqps://") })
        {
            issues.append(
                .init(
                    .warning, at: amqp.addressKey(0, in: path),
                    "TLS files are set but no address is amqps://, so they are not used"))
        }
        for (index, address) in amqp.addresses.enumerated() where address.isMapping {
            let entry = amqp.addressKey(index, in: path)
            validateTLSFiles(
                caFile: address.caFile, certFile: address.certFile, keyFile: address.keyFile, at: entry,
                into: &issues)
            if address.namesTLSFiles, !address.url.hasPrefix("amqps://") {
                issues.append(
                    .init(.warning, at: entry, "TLS files are set but the URL is not amqps://, so they are not used"))
            }
        }
    }

    /// `amqp.consumer_timeout`: 0 (the broker's own) or 1m to 24h (RabbitMQ
    /// checks the timeout once a minute and supports nothing shorter), and a
    /// warning when it does not exceed `longestHold(_:)`: the broker would
    /// take back events Herald is still working on and deliver them again.
    func validateConsumerTimeout(_ config: Configuration, into issues: inout [ConfigIssue]) {
        let timeout = config.amqp.consumerTimeout
        let at = ConfigPath.root.key("amqp").key("consumer_timeout")
        guard timeout.milliseconds != 0 else { return }
        guard (60_000...86_400_000).contains(timeout.milliseconds) else {
            issues.append(
                .init(
                    .error, at: at,
                    "expected 0s (the broker's own) or 1m to 24h, found \(timeout) (RabbitMQ checks it once a minute)"))
            return
        }
        let hold = Self.longestHold(config)
        if timeout <= hold {
            issues.append(
                .init(
                    .warning, at: at,
                    "\(timeout) does not exceed the \(hold) Herald may hold an event (4 x the longest provider timeout"
                        + " + shutdown_deadline): the broker would take events back while they are being delivered"))
        }
    }

    /// The longest Herald holds an event unacked of its own accord: four
    /// provider requests (an FCM send that gets a 401 fetches a token, sends,
    /// fetches again and sends again, each bounded by the app's `timeout`),
    /// then, if a shutdown began meanwhile, `shutdown_deadline`.
    static func longestHold(_ config: Configuration) -> ConfigDuration {
        let timeouts = config.apps.values.flatMap { $0.sections.values.map(\.timeout) }
        let longest = timeouts.max() ?? ConfigDuration(milliseconds: 0)
        return ConfigDuration(milliseconds: 4 * longest.milliseconds + config.shutdownDeadline.milliseconds)
    }

    /// `ca_file`, `cert_file` and `key_file` below `path` (the section, or one
    /// address of `urls`): each file readable within its limit, the
    /// certificate and key given together.
    private func validateTLSFiles(
        caFile: String?, certFile: String?, keyFile: String?, at path: ConfigPath,
        into issues: inout [ConfigIssue]
    ) {
        if let ca = caFile {
            checks.readFile(ca, at: path.key("ca_file"), what: "CA file", limit: .caBundle, into: &issues)
        }
        switch (certFile, keyFile) {
        case (let cert?, let key?):
            checks.readFile(
                cert, at: path.key("cert_file"), what: "client certificate", limit: .certificate, into: &issues)
            checks.readFile(key, at: path.key("key_file"), what: "client key", limit: .key, secret: true, into: &issues)
        case (.some, nil):
            issues.append(.init(.error, at: path.key("cert_file"), "cert_file needs key_file too"))
        case (nil, .some):
            issues.append(.init(.error, at: path.key("key_file"), "key_file needs cert_file too"))
        case (nil, nil):
            break
        }
    }
}
