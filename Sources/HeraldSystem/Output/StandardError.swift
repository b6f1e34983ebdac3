import Glibc

/// The process's standard error, written a whole line at a time: the log
/// sink every command and the service write to.
public enum StandardError {
    /// Writes `line` and a newline with as few `write(2)` calls as the kernel
    /// allows (one, in practice), so lines from concurrent threads never interleave.
    public static func write(line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(2, base + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
