/// A metadata value attached to a log line.
///
/// Device tokens are a distinct case so they can never be printed whole: the
/// renderer keeps their first 8 characters. Secrets (keys, access tokens,
/// passwords) have no case at all; pass them nowhere near a logger.
public enum LogValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    /// A device token or registration token: rendered masked, e.g. `a1b2c3d4…`.
    case token(String)

    public var description: String {
        switch self {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        case .token(let t): LogValue.mask(token: t)
        }
    }

    /// Keeps the first 8 characters of a device token, enough to correlate
    /// lines, never enough to address a device.
    public static func mask(token: String) -> String {
        token.count <= 8 ? String(repeating: "*", count: token.count) : String(token.prefix(8)) + "…"
    }
}

extension LogValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringInterpolation
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
