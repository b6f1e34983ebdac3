/// One entry of the config's `routes:` list: a name, a condition and what to do.
public struct RoutingRule: Sendable, Equatable {
    public var name: String
    public var match: RouteMatch
    /// Deliver with this app's credentials instead of the event's own `app`.
    public var app: String?
    /// Fields replaced on the event.
    public var set: EventOverrides
    /// Fields filled in when the event leaves them out.
    public var defaults: EventOverrides
    /// Drop the target with this reason (a `dropped` outcome).
    public var drop: String?
    /// Only these providers may deliver; targets of others are dropped.
    public var providers: Set<Provider>?

    public init(
        name: String, match: RouteMatch = RouteMatch(), app: String? = nil, set: EventOverrides = EventOverrides(),
        defaults: EventOverrides = EventOverrides(), drop: String? = nil, providers: Set<Provider>? = nil
    ) {
        self.name = name
        self.match = match
        self.app = app
        self.set = set
        self.defaults = defaults
        self.drop = drop
        self.providers = providers
    }
}
