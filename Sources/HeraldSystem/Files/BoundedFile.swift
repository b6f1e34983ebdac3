import Glibc

/// A file Herald reads whole (the config, key files, service accounts,
/// certificates), read only when it is a regular file no larger than the
/// limit for what it is, so a wrong path or a huge file is a clear error
/// before any of it is in memory.
///
/// The size is taken from the open descriptor (`fstat`), and the read stops
/// one byte past the limit, so a file that grows while it is read is
/// refused as well.
public struct BoundedFile: Sendable {
    /// The upper bounds, one per kind of file; docs/security.md lists them.
    public enum Limit: Sendable, Equatable, CustomStringConvertible {
        /// `config.yaml` and the simulator's settings: 4 MiB.
        case config
        /// An APNs `.p8` key, a PEM client key, a service-account JSON: 64 KiB.
        case key
        /// A client certificate (PEM or PKCS#12) with its chain: 1 MiB.
        case certificate
        /// A CA bundle: 16 MiB (a whole system store fits).
        case caBundle

        public var bytes: Int {
            switch self {
            case .config: 4 << 20
            case .key: 64 << 10
            case .certificate: 1 << 20
            case .caBundle: 16 << 20
            }
        }

        public var description: String { ByteCount(bytes).description }
    }

    /// Why a file could not be read, with the path as given.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            case notFound
            case isDirectory
            case notRegularFile
            case unreadable(errno: Int32)
            case tooLarge(size: Int, limit: Int)
        }

        public let path: String
        public let reason: Reason

        public init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        /// What is wrong, without the path (callers say which file it is).
        public var problem: String {
            switch reason {
            case .notFound: "does not exist"
            case .isDirectory: "is a directory, expected a file"
            case .notRegularFile: "is not a regular file"
            case .unreadable(let code): "cannot be read (\(String(cString: strerror(code))))"
            case .tooLarge(let size, let limit):
                "is \(ByteCount(size)), over the \(ByteCount(limit)) limit for such a file"
            }
        }

        public var description: String { "'\(path)' \(problem)" }
    }

    public let path: String
    /// The whole contents.
    public let bytes: [UInt8]
    /// The file's permission bits (`st_mode & 0o777`).
    public let mode: UInt32

    /// True when users other than the owner and group may read it: a private
    /// key that should be `chmod 600`.
    public var isReadableByOthers: Bool { mode & 0o004 != 0 }

    /// The permission bits as `chmod` takes them, e.g. `0644`.
    public var modeDescription: String {
        let octal = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    }

    /// Reads `path` whole if it is a regular file of at most `limit` bytes.
    public init(path: String, limit: Limit) throws(BoundedFile.Error) {
        try self.init(path: path, maximumBytes: limit.bytes)
    }

    public init(path: String, maximumBytes: Int) throws(BoundedFile.Error) {
        func failure(_ reason: Error.Reason) -> Error { Error(path: path, reason: reason) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw failure(.notFound)
            case EISDIR: throw failure(.isDirectory)
            case let code: throw failure(.unreadable(errno: code))
            }
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(.unreadable(errno: errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure(.isDirectory)
        default: throw failure(.notRegularFile)
        }
        let size = Int(status.st_size)
        guard size <= maximumBytes else { throw failure(.tooLarge(size: size, limit: maximumBytes)) }
        // One byte of room past the limit tells a file that grew while being read.
        var buffer = [UInt8](repeating: 0, count: min(size, maximumBytes) + 1)
        var filled = 0
        while filled < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled)
            }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw failure(.unreadable(errno: errno))
            }
            if got == 0 { break }
            filled += got
            if filled > maximumBytes { throw failure(.tooLarge(size: filled, limit: maximumBytes)) }
            if filled == buffer.count { buffer.append(contentsOf: repeatElement(0, count: 4096)) }
        }
        buffer.removeSubrange(filled...)
        self.path = path
        self.bytes = buffer
        self.mode = UInt32(status.st_mode) & 0o777
    }

    /// The contents as text, when they are valid UTF-8.
    public var utf8Text: String? { String(validating: bytes, as: UTF8.self) }
}

/// A byte count as people read it: `512 bytes`, `64 KiB`, `2.3 GiB`.
public struct ByteCount: Sendable, CustomStringConvertible {
    public let bytes: Int
    public init(_ bytes: Int) { self.bytes = bytes }

    public var description: String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let whole = value.rounded(.down) == value
        let shown = whole ? String(Int(value)) : String(Double(Int(value * 10)) / 10)
        return "\(shown) \(units[unit])"
    }
}
