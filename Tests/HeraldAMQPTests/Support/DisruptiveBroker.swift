import Foundation
import Glibc
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

    /// `scripts/rabbitmq`, found from this file or `HERALD_SCRIPTS_DIR`.
    static var script: String {
        if let dir = ProcessInfo.processInfo.environment["HERALD_SCRIPTS_DIR"] { return dir + "/rabbitmq" }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent("scripts/rabbitmq").path
    }

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
        try String(contentsOfFile: directory + "/rabbitmq.pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a command off the cooperative pool; throws with its output when it fails.
    ///
    /// posix_spawn + waitpid rather than Foundation's `Process`, whose
    /// `waitUntilExit` never returned once the script had started the broker in
    /// the background.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_RABBITMQ_DIR"] = directory
        environment["HERALD_AMQP_PORT"] = String(port)
        environment["RABBITMQ_NODENAME"] = node
        let env = environment.map { "\($0.key)=\($0.value)" }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let outputPath = NSTemporaryDirectory() + "herald-amqp-\(UInt64.random(in: 0 ... .max)).log"
                defer { unlink(outputPath) }
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                let argv = ([executable] + arguments).map { strdup($0) } + [nil]
                let envp = env.map { strdup($0) } + [nil]
                defer { (argv + envp).forEach { free($0) } }
                var pid = pid_t()
                let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
                guard spawned == 0 else {
                    continuation.resume(throwing: TestFailure("cannot start \(executable): \(String(cString: strerror(spawned)))"))
                    return
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
                if status == 0 {
                    continuation.resume(returning: text)
                } else {
                    continuation.resume(throwing: TestFailure("\(executable) \(arguments) failed (\(status)): \(text)"))
                }
            }
        }
    }
}

/// Starts the disruptive node before a suite and stops it after, even on failure.
struct DisruptiveBrokerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await DisruptiveBroker.start()
        do {
            try await function()
        } catch {
            try? await DisruptiveBroker.thaw()
            try? await DisruptiveBroker.stop()
            throw error
        }
        try await DisruptiveBroker.stop()
    }
}

extension Trait where Self == DisruptiveBrokerTrait {
    /// Runs the suite against its own RabbitMQ node (see `DisruptiveBroker`).
    static var ownBroker: Self { DisruptiveBrokerTrait() }
}
