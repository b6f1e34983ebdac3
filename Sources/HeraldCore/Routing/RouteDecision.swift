/// What routing decided for one target: which app's credentials deliver it and
/// which overrides apply, or why it is not delivered at all.
public struct RouteDecision: Sendable, Equatable {
    /// Why a target is not delivered.
    public enum Drop: Sendable, Equatable, CustomStringConvertible {
        /// The rule's `drop` action, with its reason.
        case rule(name: String, reason: String)
        /// The rule's `providers` list does not include the target's provider.
        case providerNotAllowed(rule: String, provider: Provider)

        public var description: String {
            switch self {
            case .rule(let name, let reason): "dropped by route '\(name)': \(reason)"
            case .providerNotAllowed(let rule, let provider): "provider \(provider) not allowed by route '\(rule)'"
            }
        }
    }

    /// The rule that matched, or nil when none did.
    public var rule: String?
    /// The app whose credentials deliver: the rule's `app`, else the event's own.
    public var app: String?
    public var set: EventOverrides
    public var defaults: EventOverrides
    public var drop: Drop?

    public init(
        rule: String? = nil, app: String?, set: EventOverrides = EventOverrides(),
        defaults: EventOverrides = EventOverrides(), drop: Drop? = nil
    ) {
        self.rule = rule
        self.app = app
        self.set = set
        self.defaults = defaults
        self.drop = drop
    }
}
