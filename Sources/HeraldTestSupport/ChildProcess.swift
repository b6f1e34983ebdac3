import Foundation
import Glibc

/// How a child process ended.
public enum ChildExit: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus status: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// The exit status as a shell reports it: the code, or 128 + the signal.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}

/// The output and exit status of a program a test ran to its end: h2load,
/// nghttp, curl, openssl, python3, the project's scripts, `herald` itself.
public struct ToolRun: Sendable {
    /// The exit code, or 128 + the signal that ended it.
    public let status: Int32
    /// What it wrote: stdout and stderr together, or stdout alone (`ChildProcess.Errors.discarded`).
    public let bytes: [UInt8]

    public var output: String { String(decoding: bytes, as: UTF8.self) }
}

/// A program a test runs as a child process: spawned with `posix_spawn` with
/// a clean signal state, stdin from a file (or /dev/null), stdout and stderr
/// to a file, reaped with `waitpid`. The one way tests start processes, short
/// (`runTool`) or long-lived (a `herald run` the test signals and waits for).
///
/// Output goes to a file, not a pipe: a child that leaves a background
/// process behind (a script starting a broker) would hold a pipe open, and a
/// reader waiting for its end would never return.
///
/// `@unchecked Sendable`: `ended` is read and written only under `lock`; the
/// rest is immutable.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's stderr goes.
    public enum Errors: Sendable {
        /// Into the output file, with stdout.
        case merged
        /// To /dev/null: the output is stdout alone (a signature, a key).
        case discarded
    }

    public let pid: pid_t
    /// The file stdout (and stderr, when merged) is written to.
    public let outputPath: String
    private let inputPath: String?
    private let removesOutput: Bool
    /// Set once reaped.
    private var ended: ChildExit?
    private let lock = NSLock()

    /// Starts `executable` (a path) with `arguments`, `environment` on top of
    /// this process's (a nil value removes the variable), `input` on stdin.
    /// Output goes to `outputPath`, or a temporary file removed with the value.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        input: [UInt8]? = nil, errors: Errors = .merged, outputPath: String? = nil
    ) throws(TestFailure) {
        let unique = String(UInt64.random(in: 0 ... .max), radix: 36)
        self.outputPath = outputPath ?? NSTemporaryDirectory() + "herald-child-\(unique).out"
        removesOutput = outputPath == nil
        if let input {
            let path = NSTemporaryDirectory() + "herald-child-\(unique).in"
            guard FileManager.default.createFile(atPath: path, contents: Data(input)) else {
                throw TestFailure("cannot write the input of \(executable) to \(path)")
            }
            inputPath = path
        } else {
            inputPath = nil
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, self.outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        switch errors {
        case .merged: posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .discarded: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }

        // A clean signal state: nothing blocked, SIGTERM/SIGINT/SIGPIPE/SIGHUP at their
        // defaults (a child installs its own handlers), whatever the test runner did.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            if let inputPath { unlink(inputPath) }
            throw TestFailure("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    deinit {
        kill()
        if let inputPath { unlink(inputPath) }
        if removesOutput { unlink(outputPath) }
    }

    /// Sends `signal` (if the child has not been reaped yet).
    public func send(_ signal: Int32) {
        lock.withLock {
            if ended == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Reaps the child if it has ended; never blocks.
    public func poll() -> ChildExit? {
        lock.withLock {
            if let ended { return ended }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { ended = ChildExit(waitStatus: status) }
            return ended
        }
    }

    public var isRunning: Bool { poll() == nil }

    /// Waits for the child to end; nil if it is still running after `timeout`
    /// (a bound only a failure reaches).
    public func waitForExit(timeout: Duration) async -> ChildExit? {
        _ = await eventually(timeout: timeout) { poll() != nil }
        return poll()
    }

    /// Blocks the calling thread until the child ends (use it off the cooperative pool).
    /// The wait itself holds no lock (`WNOWAIT`), so `send` and `kill` stay usable meanwhile.
    public func waitForExitBlocking() -> ChildExit {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        return waitForReap()
    }

    /// Reaps the child, which has ended (or is being killed).
    private func waitForReap() -> ChildExit {
        lock.withLock {
            if let ended { return ended }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let exit = ChildExit(waitStatus: status)
            ended = exit
            return exit
        }
    }

    /// Blocks the calling thread until the child ends or `timeout` passes; on
    /// the timeout the child is killed and nil returned.
    public func waitForExitBlocking(timeout: Duration) -> ChildExit? {
        let deadline = ContinuousClock.now + timeout
        var pause: UInt32 = 500  // µs, doubling to 20 ms: a short tool is reaped at once
        while poll() == nil {
            if ContinuousClock.now >= deadline {
                kill()
                return nil
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return poll()
    }

    /// SIGKILL and reap, unless already reaped. Safe to call repeatedly.
    public func kill() {
        lock.withLock {
            guard ended == nil else { return }
            _ = Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            ended = ChildExit(waitStatus: status)
        }
    }

    /// What the child wrote so far.
    public var bytes: [UInt8] {
        FileManager.default.contents(atPath: outputPath).map { Array($0) } ?? []
    }

    /// What the child wrote so far, as text (its log lines), for failure messages.
    public var output: String {
        FileManager.default.contents(atPath: outputPath).map { String(decoding: $0, as: UTF8.self) }
            ?? "(no output: \(outputPath) unreadable)"
    }

    /// The last `lines` lines of output.
    public func tail(_ lines: Int = 30) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}

/// Runs `path` to its end on the calling thread and returns what it wrote and
/// its status. Blocks: call it off the cooperative pool (`runTool` does).
///
/// `timeout` is a bound only a tool that hangs reaches: it is then killed
/// and the test fails naming it, instead of the run waiting forever.
public func runToolNow(
    _ path: String, _ arguments: [String], environment: [String: String?] = [:],
    input: [UInt8]? = nil, errors: ChildProcess.Errors = .merged, timeout: Duration = .seconds(300)
) throws(TestFailure) -> ToolRun {
    let child = try ChildProcess(path, arguments, environment: environment, input: input, errors: errors)
    guard let exit = child.waitForExitBlocking(timeout: timeout) else {
        throw TestFailure(
            "\(path) \(arguments) did not end within \(timeout) and was killed; it wrote: \(child.tail(20))")
    }
    return ToolRun(status: exit.status, bytes: child.bytes)
}

/// Runs `path` to its end on a thread of its own (never blocking the
/// cooperative pool) and returns what it wrote and its status.
public func runTool(
    _ path: String, _ arguments: [String], environment: [String: String?] = [:],
    input: [UInt8]? = nil, errors: ChildProcess.Errors = .merged, timeout: Duration = .seconds(300)
) async throws(TestFailure) -> ToolRun {
    try await onOwnThread {
        Result { () throws(TestFailure) -> ToolRun in
            try runToolNow(
                path, arguments, environment: environment, input: input, errors: errors, timeout: timeout)
        }
    }.get()
}

extension ChildProcess {
    /// The `herald` executable next to the test bundle (`.build/<triple>/debug/herald`);
    /// `HERALD_BINARY` overrides.
    public static func heraldExecutable() throws(TestFailure) -> String {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["HERALD_BINARY"] { candidates.append(explicit) }
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent("herald").path)
        let bundle = Bundle.main.bundleURL.standardizedFileURL
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("herald").path)
        candidates.append(bundle.appendingPathComponent("herald").path)
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw TestFailure(
            "the herald executable was not found (looked at \(candidates.joined(separator: ", "))); "
                + "build it with `swift build --build-tests` or set HERALD_BINARY")
    }

    /// Starts `herald run --config <config>`; its output goes to `<config>.<n>.log`.
    public static func heraldRun(config: String) throws(TestFailure) -> ChildProcess {
        try ChildProcess(
            heraldExecutable(), ["run", "--config", config],
            outputPath: "\(config).\(UInt32.random(in: 0...UInt32.max)).log")
    }
}
