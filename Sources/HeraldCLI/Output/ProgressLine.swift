import Glibc
import HeraldCore
import HeraldSystem

/// A status line redrawn in place on standard error (`\r`, then the text,
/// then clearing the rest of the line) while a long command runs — only
/// when standard error is a terminal and the command writes to the real
/// console: piped, redirected or under test it writes nothing, so logs and
/// scripts see only the command's own lines.
final class ProgressLine {
    private let enabled: Bool
    private var lastDraw: Double = 0
    private var drawn = false

    /// A progress line for `console`: drawn only on the process's terminal.
    init(console: any Console) {
        enabled = console is StandardConsole && isatty(2) == 1
    }

    /// Draws `text` at most every 200 ms (`force`: now).
    func update(_ text: @autoclosure () -> String, force: Bool = false) {
        guard enabled else { return }
        let now = Self.seconds()
        guard force || now - lastDraw >= 0.2 else { return }
        lastDraw = now
        drawn = true
        write("\r" + text() + "\u{1B}[K")
    }

    /// Clears the line, before the command prints anything else to standard error.
    func clear() {
        guard enabled, drawn else { return }
        drawn = false
        write("\r\u{1B}[K")
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
            }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
