/// Event fields a routing rule can set (`set`: replace what the event says) or
/// default (`defaults`: fill in only what the event leaves out).
public struct EventOverrides: Sendable, Equatable {
    public var priority: Priority?
    public var ttl: Int?
    public var pushType: PushType?
    public var collapseID: String?
    public var sound: String?
    public var contentAvailable: Bool?
    public var mutableContent: Bool?
    /// Turns the event's debug trace on (or off) for the targets the rule matches.
    public var debug: Bool?

    public init(
        priority: Priority? = nil, ttl: Int? = nil, pushType: PushType? = nil, collapseID: String? = nil,
        sound: String? = nil, contentAvailable: Bool? = nil, mutableContent: Bool? = nil,
        debug: Bool? = nil
    ) {
        self.priority = priority
        self.ttl = ttl
        self.pushType = pushType
        self.collapseID = collapseID
        self.sound = sound
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
        self.debug = debug
    }

    public var isEmpty: Bool { self == EventOverrides() }
}
