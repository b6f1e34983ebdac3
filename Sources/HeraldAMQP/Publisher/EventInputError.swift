/// An event file that is not one JSON object or JSON lines of objects; names the line.
public struct EventInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let source: String
    public let line: Int?
    public let reason: String

    public var description: String {
        if let line { return "\(source):\(line): \(reason)" }
        return "\(source): \(reason)"
    }
}
