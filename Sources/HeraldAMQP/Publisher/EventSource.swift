import Foundation

/// Where `herald publish` reads events from: a file, standard input (`-`), or
/// bytes already in memory (tests, other tools).
public enum EventSource: Sendable {
    case file(String)
    case standardInput
    case bytes([UInt8], name: String)

    /// The CLI argument: `-` is standard input, anything else a file path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    /// The name used in error messages (`event.json:3: ...`).
    public var name: String {
        switch self {
        case .file(let path): path
        case .standardInput: "<stdin>"
        case .bytes(_, let name): name
        }
    }

    func read() throws(EventInputError) -> [UInt8] {
        switch self {
        case .bytes(let bytes, _):
            return bytes
        case .standardInput:
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw EventInputError(source: name, line: nil, reason: "cannot read the file")
            }
            return [UInt8](data)
        }
    }
}
