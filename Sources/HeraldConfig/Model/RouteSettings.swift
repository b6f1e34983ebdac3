/// One entry of `routes:` as written in config; `ConfigValidator` turns it into
/// a `RoutingRule` after checking app names, providers and match fields.
public struct RouteSettings: Sendable, Equatable, Decodable {
    public var name: String
    public var match: MatchSettings
    public var app: String?
    public var set: OverrideSettings?
    public var defaults: OverrideSettings?
    /// `drop: true` or `drop: "reason"`.
    public var drop: DropSetting?
    public var providers: [String]?
    /// How many of the targets the route matches one instance sends per second or minute.
    public var rate: RateSettings?

    enum CodingKeys: String, CodingKey { case name, match, app, set, defaults, drop, providers, rate }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        match = try c.decodeIfPresent(MatchSettings.self, forKey: .match) ?? MatchSettings()
        app = try c.decodeIfPresent(String.self, forKey: .app)
        set = try c.decodeIfPresent(OverrideSettings.self, forKey: .set)
        defaults = try c.decodeIfPresent(OverrideSettings.self, forKey: .defaults)
        drop = try c.decodeIfPresent(DropSetting.self, forKey: .drop)
        providers = try c.decodeIfPresent([String].self, forKey: .providers)
        rate = try c.decodeIfPresent(RateSettings.self, forKey: .rate)
    }
}

/// A route's `drop:`: `true` (a generic reason) or the reason itself.
public struct DropSetting: Sendable, Equatable, Decodable {
    /// Nil when `drop: false` (the route does not drop).
    public var reason: String?

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let flag = try? c.decode(Bool.self) {
            reason = flag ? "dropped by routing rule" : nil
        } else if let text = try? c.decode(String.self), !text.isEmpty {
            reason = text
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "expected true, false or a reason string"))
        }
    }
}

/// A route's `match:`. Keys are `routing_key`, `headers` and event fields
/// (`app`, `provider`, `push_type`, `priority`, `data.<key>`), each a value or a list.
public struct MatchSettings: Sendable, Equatable, Decodable {
    public var routingKey: OneOrMany?
    public var headers: [String: OneOrMany]
    /// Event-field tests in the order written; names are checked by the validator.
    public var fields: [FieldTest]

    /// One `field: value(s)` entry of a match.
    public struct FieldTest: Sendable, Equatable {
        public var name: String
        public var values: [String]
    }

    public init() {
        routingKey = nil
        headers = [:]
        fields = []
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        self.init()
        for key in c.allKeys {
            switch key.stringValue {
            case "routing_key": routingKey = try c.decode(OneOrMany.self, forKey: key)
            case "headers": headers = try c.decode([String: OneOrMany].self, forKey: key)
            default:
                fields.append(
                    FieldTest(name: key.stringValue, values: try c.decode(OneOrMany.self, forKey: key).values))
            }
        }
    }
}

/// A route's `set:` or `defaults:`: event fields it replaces or fills in.
public struct OverrideSettings: Sendable, Equatable, Decodable {
    public var priority: String?
    public var ttl: Int?
    public var pushType: String?
    public var collapseID: String?
    public var sound: String?
    public var contentAvailable: Bool?
    public var mutableContent: Bool?
    public var debug: Bool?

    enum CodingKeys: String, CodingKey {
        case priority, ttl, sound, debug
        case pushType = "push_type"
        case collapseID = "collapse_id"
        case contentAvailable = "content_available"
        case mutableContent = "mutable_content"
    }
}

/// A config value that may be written as one string or a list of strings:
/// `routing_key: "marketing.#"` and `routing_key: ["a.#", "b.#"]` both decode.
public struct OneOrMany: Sendable, Hashable, Decodable {
    public let values: [String]

    public init(_ values: [String]) { self.values = values }

    public init(from decoder: any Decoder) throws {
        if let list = try? [String](from: decoder) {
            values = list
        } else if let one = try? decoder.singleValueContainer().decode(String.self) {
            values = [one]
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "expected a string or a list of strings"))
        }
    }
}
