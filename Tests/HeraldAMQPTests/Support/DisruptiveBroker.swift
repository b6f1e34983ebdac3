import Foundation
import HeraldTestSupport
import Testing

/// A RabbitMQ node of our own (port 5681, `herald-disrupt@localhost`), for tests
/// that stop, restart or freeze the broker, so they never disturb the shared
/// broker on 5672. Also listens for TLS on 5682 with a throwaway CA.
enum DisruptiveBroker {
    static let port = 5681
    static let tlsPort = 5682
    static let node = "herald-disrupt@localhost"
    static let directory = "/tmp/herald-disrupt-amqp"
    static var tlsDirectory: String { directory + "/tls" }
    static var url: String { "amqp://guest:guest@127.0.0.1:\(port)/%2f" }
    static var tlsURL: String { "amqps://guest:guest@localhost:\(tlsPort)/%2f" }

    static var script: String { ScriptRunner.rabbitmqScript }

    static func start() async throws {
        try FileManager.default.createDirectory(atPath: tlsDirectory, withIntermediateDirectories: true)
        try await run("/bin/sh", ["-c", TLSFixtures.generateScript(in: tlsDirectory)])
        try TLSFixtures.brokerConfig(tlsDirectory: tlsDirectory, tlsPort: tlsPort)
            .write(toFile: directory + "/rabbitmq.conf", atomically: true, encoding: .utf8)
        try await run(script, ["start"])
    }

    static func stop() async throws { try await run(script, ["stop"]) }
    static func stopApp() async throws { try await run(script, ["ctl", "stop_app"]) }
    static func startApp() async throws { try await run(script, ["ctl", "start_app"]) }

    /// SIGSTOP / SIGCONT the node's VM: it keeps its sockets but answers nothing.
    static func freeze() async throws { try await run("/bin/kill", ["-STOP", try pid()]) }
    static func thaw() async throws { try await run("/bin/kill", ["-CONT", try pid()]) }

    private static func pid() throws -> String {
        try String(contentsOfFile: directory + "/rabbitmq.pid", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Runs a command with this node's environment (`ScriptRunner`).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        try await ScriptRunner.run(
            executable, arguments,
            environment: [
                "HERALD_RABBITMQ_DIR": directory, "HERALD_AMQP_PORT": String(port), "RABBITMQ_NODENAME": node,
            ])
    }
}

extension Trait where Self == BrokerScopeTrait {
    /// Runs the suite against its own RabbitMQ node (see `DisruptiveBroker`).
    static var ownBroker: Self {
        BrokerScopeTrait(
            start: { try await DisruptiveBroker.start() },
            stop: {
                try? await DisruptiveBroker.thaw()
                try await DisruptiveBroker.stop()
            })
    }
}
