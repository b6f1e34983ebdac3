import Foundation
import HeraldBrokerTestSupport
import HeraldConfig
import HeraldProviders
import HeraldService

/// A Herald config for one test: names unique to the test (so tests share the
/// broker without sharing queues), pointing at a `SimulatorHarness`.
///
/// `sharing` reuses another config's names (two instances on one queue, each
/// with its own file, e.g. its own `httpListen`). `amqpURLs`, when given,
/// replaces `amqpURL` with the nodes of a cluster, tried in this order
/// (`shuffle: false`).
struct ServiceConfig {
    static var brokerURL: String { BrokerFixture.url }

    let prefix: String
    let file: String

    init(
        simulator: SimulatorHarness, queueType: String = "classic", prefetch: Int = 64, concurrency: Int = 512,
        maxAttempts: Int = 3,
        delays: String = "[200ms]",
        publish: String = "[delivered, invalid_token, failed, retrying, expired, dropped, rejected]",
        shutdownDeadline: String = "10s", routes: String = "", extraAppsYAML: String = "",
        sharing other: ServiceConfig? = nil,
        amqpURL: String = ServiceConfig.brokerURL, amqpURLs: [String] = [], httpListen: String = "127.0.0.1:0",
        providerTimeout: String = "5s",
        logLevel: String = "warning", outcomesExtra: String = "", amqpExtra: String = "", topLevelExtra: String = "",
        chatAllowedTopics: [String] = []
    ) throws {
        prefix = other?.prefix ?? BrokerFixture("service").prefix
        file = simulator.directory + "/\(prefix)-\(UInt32.random(in: 0...UInt32.max)).yaml"
        let address =
            amqpURLs.isEmpty ? ["url: \(amqpURL)"] : ["urls: [\(amqpURLs.joined(separator: ", "))]", "shuffle: false"]
        let amqp = BrokerFixture.amqpSection(
            prefix: prefix, address: address, queueType: queueType,
            extra: ["prefetch: \(prefetch)", "concurrency: \(concurrency)", "heartbeat: 10s"]
                + (amqpExtra.isEmpty ? [] : [amqpExtra]))
        try """
        \(amqp)
        apps:
        \(Self.apnsApp("chat", topic: "com.example.chat", simulator: simulator, timeout: providerTimeout, allowedTopics: chatAllowedTopics))
        \(Self.fcmSection(simulator: simulator, timeout: providerTimeout))
        \(extraAppsYAML)
        \(routes)
        retry: {max_attempts: \(maxAttempts), delays: \(delays)}
        outcomes: {publish: \(publish)\(outcomesExtra)}
        http: {listen: "\(httpListen)"}
        log: {level: \(logLevel)}
        shutdown_deadline: \(shutdownDeadline)
        \(topLevelExtra)
        """.write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// An app with token-auth APNs credentials on the simulator's key (the
    /// `apps:` entry, indented for it; add `fcm:` lines after it if needed).
    static func apnsApp(
        _ name: String, topic: String, simulator: SimulatorHarness, timeout: String = "5s", allowedTopics: [String] = []
    ) -> String {
        """
          \(name):
            apns:
              team_id: \(SimulatorHarness.teamID)
              key_id: \(SimulatorHarness.keyID)
              key_file: \(simulator.apnsKeyFile)
              topic: \(topic)
              endpoint: \(simulator.baseURL)
              ca_file: \(simulator.pki.caCertificatePath)
              timeout: \(timeout)
        """ + (allowedTopics.isEmpty ? "" : "\n      allowed_topics: [\(allowedTopics.joined(separator: ", "))]")
            + (simulator.sandbox.map { "\n      endpoints: {sandbox: \($0.baseURL)}" } ?? "")
    }

    /// An app's `fcm:` section on the simulator, sending for `project` with
    /// that project's service account (indented for an `apps:` entry; after
    /// its name or its `apns:` section).
    static func fcmSection(
        simulator: SimulatorHarness, project: String = SimulatorHarness.project, timeout: String = "5s"
    ) -> String {
        """
            fcm:
              service_account_file: \(simulator.serviceAccountFile(project: project))
              endpoint: \(simulator.baseURL)
              ca_file: \(simulator.pki.caCertificatePath)
              timeout: \(timeout)
        """
    }

    /// An app's `webpush:` section on the simulator's push service, signing
    /// with the harness's VAPID key (indented for an `apps:` entry). The
    /// simulator listens on loopback, so the section opts in to internal
    /// addresses and allows any host unless `egress` is given (its own
    /// `allowed_hosts` and `unsafe_allow_internal_addresses` lines, or "").
    static func webPushSection(simulator: SimulatorHarness, timeout: String = "5s", egress: String? = nil) -> String {
        """
            webpush:
              vapid:
                private_key_file: \(simulator.vapidKeyFile)
                subject: mailto:push-team@example.com
              ca_file: \(simulator.pki.caCertificatePath)
              timeout: \(timeout)
        """ + (egress ?? "\n      allowed_hosts: [\"*\"]\n      unsafe_allow_internal_addresses: true")
    }

    func load() throws -> LoadedConfig {
        try ConfigLoader.load(file: file, environment: [:], providers: RegisteredProviders.all)
    }

    /// Every queue the topology declares, for clean-up.
    var queues: [String] {
        (try? load().topology.queues) ?? ["\(prefix).events", "\(prefix).dead", "\(prefix).registry"]
    }

    /// The delay queues of the topology (every jitter slot of every retry delay).
    var retryQueues: [String] { queues.filter { $0.hasPrefix("\(prefix).retry.") } }
}
