/// An event field a rule's `match` can test: `app`, `provider`, `push_type`,
/// `priority` or `data.<key>`.
public enum RouteField: Sendable, Hashable, CustomStringConvertible {
    case app
    case provider
    case pushType
    case priority
    case data(String)

    /// The names accepted in `match`, for error messages and suggestions.
    public static let names = ["app", "provider", "push_type", "priority", "data.<key>"]

    /// Parses a `match` key; `nil` when it is not a field (the caller reports it).
    public init?(name: String) {
        switch name {
        case "app": self = .app
        case "provider": self = .provider
        case "push_type": self = .pushType
        case "priority": self = .priority
        default:
            guard name.hasPrefix("data."), name.count > 5 else { return nil }
            self = .data(String(name.dropFirst(5)))
        }
    }

    public var description: String {
        switch self {
        case .app: "app"
        case .provider: "provider"
        case .pushType: "push_type"
        case .priority: "priority"
        case .data(let key): "data." + key
        }
    }
}
