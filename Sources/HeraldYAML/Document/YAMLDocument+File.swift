import Foundation
import HeraldCore
import HeraldSystem

extension YAMLDocument {
    /// Reads and parses a UTF-8 file of at most `BoundedFile.Limit.config`.
    /// A missing, unreadable, oversized or non-UTF-8 file is a `YAMLError`
    /// with line 0, named by `path` as given.
    public init(
        contentsOfFile path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(YAMLError) {
        let text = try Self.readUTF8(path)
        try self.init(text: text, file: path, environment: environment)
    }

    private static func readUTF8(_ path: String) throws(YAMLError) -> String {
        func failure(_ message: String) -> YAMLError {
            YAMLError(file: path, line: 0, column: 0, message: message)
        }
        let file: BoundedFile
        do {
            file = try BoundedFile(path: path, limit: .config)
        } catch {
            throw failure("the file \(error.problem)")
        }
        if let offset = firstInvalidUTF8Offset(in: file.bytes) {
            let byte = String(file.bytes[offset], radix: 16)
            throw failure("file is not valid UTF-8 (invalid byte 0x\(byte) at offset \(offset))")
        }
        return String(decoding: file.bytes, as: UTF8.self)
    }

    /// The byte offset of the first ill-formed UTF-8 sequence, if any.
    static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
