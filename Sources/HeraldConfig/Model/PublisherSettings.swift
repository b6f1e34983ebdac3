/// An app's `publishers:`: the AMQP users that may send it events and
/// registry commands, matched against a message's `user-id` property, which
/// RabbitMQ checks against the publishing connection's user (a message
/// claiming another user is refused by the broker). Without the section any
/// user that can write to the exchanges can send for the app.
///
/// With the section, both lists are in force: a list left out is empty, so
/// `publishers: {events: [orders-svc]}` takes registry commands from nobody
/// (Herald's own user excepted: its retries carry its `user-id`).
public struct PublisherSettings: Sendable, Equatable, Decodable {
    /// Users whose events may name (or be routed to) the app.
    public var events: [String]
    /// Users whose registry commands may name the app.
    public var registry: [String]

    /// The longest user name: `user-id` is an AMQP short string.
    public static let maxNameBytes = 255

    enum CodingKeys: String, CodingKey { case events, registry }

    public init(events: [String] = [], registry: [String] = []) {
        self.events = events
        self.registry = registry
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        events = try c.decodeIfPresent([String].self, forKey: .events) ?? []
        registry = try c.decodeIfPresent([String].self, forKey: .registry) ?? []
    }
}

extension Configuration {
    /// Per app with a `publishers:` section, the AMQP users that may send it
    /// what `list` picks (`\.events` or `\.registry`), with `ownUsers` — the
    /// users Herald itself connects as, whose retries come back as events.
    public func publishers(_ list: (PublisherSettings) -> [String], ownUsers: [String]) -> [String: Set<String>] {
        apps.compactMapValues { app in app.publishers.map { Set(list($0) + ownUsers) } }
    }
}
