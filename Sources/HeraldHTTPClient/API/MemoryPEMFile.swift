import CHeraldShim
import Glibc

/// PEM text given in the config instead of a file (APNs `certificate_pem`),
/// held in an anonymous memory file (`memfd_create`) that both TLS engines
/// read by its path, `/proc/self/fd/<n>`, exactly as they read a file: the
/// secret never reaches a disk, and one loading path serves files and text.
///
/// The descriptor stays open for the life of the process: connections load
/// the identity again whenever they open.
public enum MemoryPEMFile {
    /// Why the text could not be held in memory: the system's error, never the text.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let errno: Int32
        public var description: String {
            "could not hold the PEM in memory (\(String(cString: strerror(errno))))"
        }
    }

    /// A path the TLS engines can open that reads `text`.
    public static func path(holding text: String, name: String) throws(Failure) -> String {
        let fd = herald_memfd_create(name)
        guard fd >= 0 else { throw Failure(errno: errno) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                throw Failure(errno: code)
            }
            bytes = bytes.dropFirst(written)
        }
        return "/proc/self/fd/\(fd)"
    }
}
