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

    /// Keeps the first 8 characters of a device token (of a Web Push
    /// endpoint, the push service's URL and the first 8 of the subscription's
    /// segment), enough to correlate lines, never enough to address a device.
    public static func mask(token: String) -> String {
        // A Web Push endpoint keeps its push service and path: its last segment, the subscription, is cut like a token.
        if token.hasPrefix("https://"), let slash = token.lastIndex(of: "/"),
            token.distance(from: token.startIndex, to: slash) > 8
        {
            return String(token[...slash]) + mask(token: String(token[token.index(after: slash)...]))
        }
        return token.count <= 8 ? String(repeating: "*", count: token.count) : String(token.prefix(8)) + "…"
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
