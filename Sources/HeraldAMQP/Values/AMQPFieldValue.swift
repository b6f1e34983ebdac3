/// A value in an AMQP field table (message headers, queue arguments), kept
/// typed so `x-message-ttl` goes out as a number and `x-death` comes back readable.
public indirect enum AMQPFieldValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case bytes([UInt8])
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// Seconds since the UNIX epoch.
    case timestamp(UInt64)
    case table(AMQPTable)
    case array([AMQPFieldValue])
    case void

    public var description: String {
        switch self {
        case .string(let s): s
        case .bytes(let b): "<\(b.count) bytes>"
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .bool(let b): String(b)
        case .timestamp(let t): "@\(t)"
        case .table(let t): "{" + t.keys.sorted().map { "\($0): \(t[$0] ?? .void)" }.joined(separator: ", ") + "}"
        case .array(let a): "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .void: "void"
        }
    }

    /// The value as an integer when it is one (any integer width on the wire).
    public var intValue: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    /// The value as text when it is a string (or UTF-8 bytes).
    public var stringValue: String? {
        switch self {
        case .string(let s): s
        case .bytes(let b): String(validating: b, as: UTF8.self)
        default: nil
        }
    }
}

/// An AMQP field table: header names or argument names to values.
public typealias AMQPTable = [String: AMQPFieldValue]

extension AMQPFieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
