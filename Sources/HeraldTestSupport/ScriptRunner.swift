import Foundation
import Glibc

/// Runs the project's scripts (and `kill`) from tests that manage brokers.
public enum ScriptRunner {
    /// `scripts/rabbitmq`, found from this file or `HERALD_SCRIPTS_DIR`.
    public static var rabbitmqScript: String {
        if let dir = ProcessInfo.processInfo.environment["HERALD_SCRIPTS_DIR"] { return dir + "/rabbitmq" }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.appendingPathComponent("scripts/rabbitmq").path
    }

    /// Runs a command off the cooperative pool, with `environment` on top of
    /// this process's; throws with its output when it fails.
    ///
    /// posix_spawn + waitpid rather than Foundation's `Process`, whose
    /// `waitUntilExit` never returned once the script had started the broker in
    /// the background.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
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
