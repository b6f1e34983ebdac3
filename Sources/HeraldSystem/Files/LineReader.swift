import Glibc

/// Reads a file (or standard input) a line at a time in bounded memory, for
/// inputs too large to read whole (`herald registry import` of millions of
/// lines): a 64 KiB buffer and at most one line of `maxLineBytes`.
///
/// Lines end at `\n` (a `\r` before it is kept, for the caller's trimming);
/// the last line needs no newline. A line longer than `maxLineBytes` is not
/// kept: it comes back as ``Line/tooLong(number:bytes:)`` and reading goes on
/// with the next.
public final class LineReader {
    /// One line of the input, numbered from 1.
    public enum Line: Sendable, Equatable {
        case text(number: Int, bytes: [UInt8])
        /// A line over the limit; `bytes` is its length.
        case tooLong(number: Int, bytes: Int)
    }

    /// Why the input could not be read, with its name.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public let name: String
        public let message: String
        public var description: String { "\(name): \(message)" }
    }

    /// `-` for standard input, else the path: how messages name the input.
    public let name: String
    /// The input's size in bytes when it is a regular file (for progress), else nil.
    public let size: Int?
    /// Bytes consumed so far.
    public private(set) var offset = 0

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let maxLineBytes: Int
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var start = 0
    private var end = 0
    private var number = 0
    private var atEnd = false

    /// Opens `path` (`-`: standard input).
    public init(path: String, maxLineBytes: Int) throws(Error) {
        name = path
        self.maxLineBytes = maxLineBytes
        if path == "-" {
            (fd, ownsDescriptor) = (0, false)
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Error(name: path, message: String(cString: strerror(errno))) }
            (fd, ownsDescriptor) = (opened, true)
        }
        var info = stat()
        size = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    deinit { if ownsDescriptor { Glibc.close(fd) } }

    /// The next line, nil at the end of the input.
    public func next() throws(Error) -> Line? {
        var line: [UInt8] = []
        var length = 0
        while true {
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                length += newline - start
                if length <= maxLineBytes { line += buffer[start..<newline] }
                offset += newline + 1 - start
                start = newline + 1
                return finish(line, length)
            }
            length += end - start
            if length <= maxLineBytes { line += buffer[start..<end] } else { line = [] }
            offset += end - start
            (start, end) = (0, 0)
            if atEnd { return length == 0 && line.isEmpty ? nil : finish(line, length) }
            try fill()
        }
    }

    private func finish(_ line: [UInt8], _ length: Int) -> Line {
        number += 1
        return length <= maxLineBytes ? .text(number: number, bytes: line) : .tooLong(number: number, bytes: length)
    }

    private func fill() throws(Error) {
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress, raw.count) }
            if n > 0 {
                end = n
                return
            }
            if n == 0 {
                atEnd = true
                return
            }
            guard errno == EINTR else { throw Error(name: name, message: String(cString: strerror(errno))) }
        }
    }
}
