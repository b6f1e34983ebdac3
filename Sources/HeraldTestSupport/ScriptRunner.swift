import Foundation

/// Runs the project's scripts from tests that manage brokers and databases.
public enum ScriptRunner {
    /// `scripts/rabbitmq`, found from this file or `HERALD_SCRIPTS_DIR`.
    public static var rabbitmqScript: String {
        if let dir = ProcessInfo.processInfo.environment["HERALD_SCRIPTS_DIR"] { return dir + "/rabbitmq" }
        return repositoryRoot + "/scripts/rabbitmq"
    }

    /// The checkout this file is in.
    public static var repositoryRoot: String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.path
    }

    /// Runs a command off the cooperative pool, with `environment` on top of
    /// this process's; returns its output, or throws with it when it fails or
    /// outlives `timeout` (15 minutes: starting three broker nodes on two
    /// loaded cores may take several).
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String?] = [:], timeout: Duration = .seconds(900)
    ) async throws -> String {
        let run = try await runTool(executable, arguments, environment: environment, timeout: timeout)
        guard run.status == 0 else {
            throw TestFailure("\(executable) \(arguments) failed (\(run.status)): \(run.output)")
        }
        return run.output
    }
}
