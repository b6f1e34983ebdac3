import Foundation
import Glibc

/// How a child process ended.
enum ChildExit: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus status: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}

/// The real `herald` executable as a child process (`herald run --config FILE`),
/// spawned with `posix_spawn`, stdout and stderr to a log file, reaped with
/// `waitpid`. `kill()` (SIGKILL + reap) is idempotent: call it in a `defer`.
final class HeraldProcess: @unchecked Sendable {
    let pid: pid_t
    let logFile: String
    /// Set once reaped; guarded by `lock` (tests touch a process from one task, the lock is cheap insurance).
    private var ended: ChildExit?
    private let lock = NSLock()

    /// `herald` next to the test bundle (`.build/<triple>/debug/herald`); `HERALD_BINARY` overrides.
    static func executable() throws -> String {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["HERALD_BINARY"] { candidates.append(explicit) }
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent("herald").path)
        let bundle = Bundle.main.bundleURL.standardizedFileURL
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("herald").path)
        candidates.append(bundle.appendingPathComponent("herald").path)
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw ProcessTestError(
            "the herald executable was not found (looked at \(candidates.joined(separator: ", "))); "
                + "build it with `swift build --build-tests` or set HERALD_BINARY")
    }

    /// Starts `herald run --config <config>`; its output goes to `<config>.<n>.log`.
    init(config: String) throws {
        let path = try Self.executable()
        logFile = "\(config).\(UInt32.random(in: 0...UInt32.max)).log"
        let arguments = [path, "run", "--config", config]

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        // A clean signal state: nothing blocked, SIGTERM/SIGINT/SIGPIPE at their defaults
        // (the child installs its own handlers), whatever the test runner did.
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

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw ProcessTestError("posix_spawn \(path): \(String(cString: strerror(result)))") }
        pid = child
    }

    deinit { kill() }

    /// Sends `signal` (if the child has not been reaped yet).
    func send(_ signal: Int32) {
        lock.withLock {
            if ended == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Reaps the child if it has ended; never blocks.
    func poll() -> ChildExit? {
        lock.withLock {
            if let ended { return ended }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { ended = ChildExit(waitStatus: status) }
            return ended
        }
    }

    /// Waits (polling with WNOHANG) for the child to end; nil if it is still running after `timeout`.
    func waitForExit(timeout: Duration) async -> ChildExit? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let exit = poll() { return exit }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return poll()
    }

    var isRunning: Bool { poll() == nil }

    /// SIGKILL and reap, unless already reaped. Safe to call repeatedly.
    func kill() {
        lock.withLock {
            guard ended == nil else { return }
            _ = Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            ended = ChildExit(waitStatus: status)
        }
    }

    /// The child's output so far (its log lines), for failure messages.
    var output: String {
        (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no output: \(logFile) unreadable)"
    }

    /// The last `lines` lines of output.
    func tail(_ lines: Int = 30) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}

struct ProcessTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A TCP port nothing listens on right now (bound to 0 by us, then closed).
func freeLocalPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ProcessTestError("socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw ProcessTestError("bind: \(String(cString: strerror(errno)))") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A minimal HTTP/1.0 GET over a socket (for `/metrics`, `/healthz`, `/readyz`).
/// nil when nothing answers (not listening yet, or gone).
func httpGet(port: Int, path: String, timeoutSeconds: Int = 5) -> (status: Int, body: String)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    var sent = 0
    while sent < request.count {
        let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { return nil }
        sent += n
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { response += buffer[..<n] } else if n < 0 && errno == EINTR { continue } else { break }
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let headerEnd = text.range(of: "\r\n\r\n") else { return nil }
    let statusLine = text[..<headerEnd.lowerBound].split(separator: "\r\n").first ?? ""
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
    return (status, String(text[headerEnd.upperBound...]))
}

/// The sum of a metric's samples (all label sets) in a Prometheus text exposition.
func metricSum(_ name: String, in exposition: String) -> Double {
    var total = 0.0
    for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
        let sample = line.split(separator: " ")
        guard sample.count >= 2 else { continue }
        let series = sample[0]
        guard series == name || series.hasPrefix(name + "{") else { continue }
        total += Double(sample[1]) ?? 0
    }
    return total
}

/// Polls `condition` every 50 ms until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}
