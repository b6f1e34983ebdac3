import Glibc
import HeraldCore
import HeraldSystem

/// Where commands write: standard output for results, standard error for
/// diagnostics. Injected so tests can read what a command printed.
public protocol Console: Sendable {
    func out(_ text: String)
    func err(_ text: String)
}

/// The process's real stdout and stderr.
public struct StandardConsole: Console {
    public init() {}

    public func out(_ text: String) { write(fd: 1, text + "\n") }
    public func err(_ text: String) { write(fd: 2, text + "\n") }

    private func write(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}

/// Collects output in memory, for tests.
public final class CapturedConsole: Console {
    private let storage = Locked<(out: [String], err: [String])>(([], []))

    public init() {}

    public func out(_ text: String) { storage.withLock { $0.out.append(text) } }
    public func err(_ text: String) { storage.withLock { $0.err.append(text) } }

    public var stdout: String { storage.withLock { $0.out.joined(separator: "\n") } }
    public var stderr: String { storage.withLock { $0.err.joined(separator: "\n") } }
}
