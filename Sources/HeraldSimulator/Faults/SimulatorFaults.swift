import HeraldCore
import HeraldProviderKit

/// Trouble the simulator makes on purpose, so clients' retry paths get
/// exercised: server errors in each provider's own shape, streams reset or
/// left hanging, added latency, a request-rate limit, GOAWAY after a number of
/// streams, fewer concurrent streams per connection.
///
/// The per-request faults (errors, resets, hangs, latency, the rate limit)
/// apply only to requests in scope: to a service in `services` (APNs, FCM
/// and Web Push by default, not Google's OAuth endpoint) and, when `tokens` is not empty,
/// addressed to one of them. `goaway_after_streams` and `max_streams` are
/// the HTTP/2 server's, fixed when it starts.
///
/// YAML (`faults:` in the simulator config; the admin API's `PUT /_herald/faults` takes the same keys in JSON):
/// `{error_rate: 0.1, error_status: 503, reset_rate: 0.05, hang_rate: 0.01, drop_rate: 0.01, services: [fcm], tokens: [tok-1],
///   latency: 20ms, goaway_after_streams: 1000, max_streams: 100, rate_limit: {requests: 500, per: 1s}}`.
public struct SimulatorFaults: Sendable, Equatable, Decodable {
    /// At most `requests` per `per` (YAML `{requests: 500, per: 1s}`, `per`
    /// 1 s unless given): the simulator's one spelling of a limit, for the
    /// fault over all requests in scope (`rate_limit`), APNs's per-token
    /// limit (`apns.per_token_limit`) and each FCM project's quota
    /// (`fcm.quota`). Over it, 429 (APNs TooManyRequests, FCM QUOTA_EXCEEDED).
    public struct RateLimit: Sendable, Equatable, Decodable {
        public var requests: Int
        public var per: ConfigDuration

        public init(requests: Int, per: ConfigDuration = .seconds(1)) {
            self.requests = requests
            self.per = per
        }

        enum CodingKeys: String, CodingKey { case requests, per }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            requests = try c.decode(Int.self, forKey: .requests)
            per = try c.decodeIfPresent(ConfigDuration.self, forKey: .per) ?? .seconds(1)
            if let problem {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem))
            }
        }

        /// Why the limit cannot work (no request allowed, or in no time); nil when it can.
        public var problem: String? {
            requests < 1 || per.milliseconds < 1 ? "expected at least 1 request per a positive duration" : nil
        }
    }

    /// The services faults can be aimed at, by `SimulatorService.name`:
    /// the registered providers' (`apns`, `fcm`, `oauth`, `webpush`).
    public static let serviceNames = SimulatedProviders.all.flatMap { $0.serviceNames }
    /// `serviceNames` as a sentence's list: "apns, fcm, oauth or webpush".
    public static let serviceNamesText =
        serviceNames.dropLast().joined(separator: ", ") + " or " + (serviceNames.last ?? "")
    /// Where faults apply unless told otherwise: the push services, not the
    /// token endpoint (each provider's `defaultFaultServices`).
    public static let defaultServices = SimulatedProviders.all.flatMap { $0.defaultFaultServices }
    /// The statuses an injected error may have.
    public static let errorStatuses = [429, 500, 503]

    /// Fraction of requests in scope (0...1) answered with `errorStatus` in the service's own error shape.
    public var errorRate: Double
    /// 500 (InternalServerError, INTERNAL), 503 (ServiceUnavailable, UNAVAILABLE) or 429 (TooManyRequests, QUOTA_EXCEEDED),
    /// with `Retry-After` from FCM and Web Push on 429 and 503.
    public var errorStatus: Int
    /// Fraction of requests in scope (0...1) whose stream is reset (RST_STREAM INTERNAL_ERROR) instead of answered.
    public var resetRate: Double
    /// Fraction of requests in scope (0...1) never answered: the stream stays open until the client gives up or the connection closes.
    public var hangRate: Double
    /// Fraction of requests in scope (0...1) whose whole connection is closed
    /// with a TCP reset, every stream on it unanswered (a front end that
    /// crashed, a network path that broke).
    public var dropRate: Double
    /// The services faults apply to (`apns`, `fcm`, `oauth`, `webpush`).
    public var services: [String]
    /// When not empty, faults apply only to requests addressed to these tokens (or FCM topics).
    public var tokens: [String]
    /// Added to every answer in scope.
    public var latency: ConfigDuration?
    /// Each connection gets GOAWAY after this many streams (the HTTP/2 server does it).
    public var goAwayAfterStreams: Int?
    /// SETTINGS_MAX_CONCURRENT_STREAMS each connection advertises (the HTTP/2
    /// server's 1000 when nil): a provider that allows fewer streams makes a
    /// client open connections or queue requests (bench/e2e.sh measures it).
    public var maxStreams: Int?
    public var rateLimit: RateLimit?

    public init(
        errorRate: Double = 0, errorStatus: Int = 500, resetRate: Double = 0, hangRate: Double = 0,
        dropRate: Double = 0,
        services: [String] = SimulatorFaults.defaultServices, tokens: [String] = [], latency: ConfigDuration? = nil,
        goAwayAfterStreams: Int? = nil, maxStreams: Int? = nil, rateLimit: RateLimit? = nil
    ) {
        self.errorRate = errorRate
        self.errorStatus = errorStatus
        self.resetRate = resetRate
        self.hangRate = hangRate
        self.dropRate = dropRate
        self.services = services
        self.tokens = tokens
        self.latency = latency
        self.goAwayAfterStreams = goAwayAfterStreams
        self.maxStreams = maxStreams
        self.rateLimit = rateLimit
    }

    /// No faults at all.
    public static let none = SimulatorFaults()

    enum CodingKeys: String, CodingKey {
        case latency, services, tokens
        case errorRate = "error_rate"
        case errorStatus = "error_status"
        case resetRate = "reset_rate"
        case hangRate = "hang_rate"
        case dropRate = "drop_rate"
        case goAwayAfterStreams = "goaway_after_streams"
        case maxStreams = "max_streams"
        case rateLimit = "rate_limit"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        errorRate = try c.decodeIfPresent(Double.self, forKey: .errorRate) ?? 0
        errorStatus = try c.decodeIfPresent(Int.self, forKey: .errorStatus) ?? 500
        resetRate = try c.decodeIfPresent(Double.self, forKey: .resetRate) ?? 0
        hangRate = try c.decodeIfPresent(Double.self, forKey: .hangRate) ?? 0
        dropRate = try c.decodeIfPresent(Double.self, forKey: .dropRate) ?? 0
        services = try c.decodeIfPresent([String].self, forKey: .services) ?? Self.defaultServices
        tokens = try c.decodeIfPresent([String].self, forKey: .tokens) ?? []
        latency = try c.decodeIfPresent(ConfigDuration.self, forKey: .latency)
        goAwayAfterStreams = try c.decodeIfPresent(Int.self, forKey: .goAwayAfterStreams)
        maxStreams = try c.decodeIfPresent(Int.self, forKey: .maxStreams)
        rateLimit = try c.decodeIfPresent(RateLimit.self, forKey: .rateLimit)
        try validate(codingPath: decoder.codingPath)
    }

    /// Refuses values that cannot work, naming the key.
    func validate(codingPath: [any CodingKey]) throws {
        guard let (key, message) = firstProblem else { return }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: message))
    }

    /// `key: message` for the first value that cannot work (the command line
    /// checks flags with it), nil when the faults can all be injected.
    public var problem: String? { firstProblem.map { "\($0.key.rawValue): \($0.message)" } }

    private var firstProblem: (key: CodingKeys, message: String)? {
        let rates = [
            (CodingKeys.errorRate, errorRate), (.resetRate, resetRate), (.hangRate, hangRate), (.dropRate, dropRate),
        ]
        for (key, rate) in rates {
            guard (0...1).contains(rate) else { return (key, "expected a fraction from 0 to 1, found \(rate)") }
        }
        // A little slack for sums such as 0.1 + 0.2 + 0.7 that floating point makes 1.0000000000000002.
        let total = rates.map(\.1).reduce(0, +)
        guard total <= 1 + 1e-9 else {
            let last = rates.last { $0.1 > 0 }?.0 ?? .dropRate
            return (last, "error_rate, reset_rate, hang_rate and drop_rate add up to \(total), over 1")
        }
        guard Self.errorStatuses.contains(errorStatus) else {
            return (.errorStatus, "expected 429, 500 or 503, found \(errorStatus)")
        }
        guard !services.isEmpty else {
            return (.services, "expected at least one of \(Self.serviceNames.joined(separator: ", "))")
        }
        if let unknown = services.first(where: { !Self.serviceNames.contains($0) }) {
            return (.services, "expected \(Self.serviceNamesText), found '\(unknown)'")
        }
        if let goAwayAfterStreams, goAwayAfterStreams < 1 {
            return (.goAwayAfterStreams, "expected a positive number of streams, found \(goAwayAfterStreams)")
        }
        if let maxStreams, maxStreams < 1 {
            return (.maxStreams, "expected a positive number of streams, found \(maxStreams)")
        }
        if let problem = rateLimit?.problem { return (.rateLimit, problem) }
        return nil
    }

    /// The faults as the admin API shows them: every key, with its YAML name
    /// (`null` for what is not set).
    public var jsonValue: JSONValue {
        func number(_ value: Int?) -> JSONValue { value.map { .number(JSONNumber($0)) } ?? .null }
        func fraction(_ value: Double) -> JSONValue { JSONNumber(value).map { .number($0) } ?? .null }
        var rateLimitValue = JSONValue.null
        if let rateLimit {
            rateLimitValue = .object(
                JSONObject([
                    ("requests", number(rateLimit.requests)), ("per", .string(rateLimit.per.description)),
                ]))
        }
        var object = JSONObject()
        object[CodingKeys.errorRate.rawValue] = fraction(errorRate)
        object[CodingKeys.errorStatus.rawValue] = number(errorStatus)
        object[CodingKeys.resetRate.rawValue] = fraction(resetRate)
        object[CodingKeys.hangRate.rawValue] = fraction(hangRate)
        object[CodingKeys.dropRate.rawValue] = fraction(dropRate)
        object[CodingKeys.services.rawValue] = .array(services.map { .string($0) })
        object[CodingKeys.tokens.rawValue] = .array(tokens.map { .string($0) })
        object[CodingKeys.latency.rawValue] = latency.map { .string($0.description) } ?? .null
        object[CodingKeys.rateLimit.rawValue] = rateLimitValue
        object[CodingKeys.goAwayAfterStreams.rawValue] = number(goAwayAfterStreams)
        object[CodingKeys.maxStreams.rawValue] = number(maxStreams)
        return .object(object)
    }
}

/// What an injected fault does to a request, as the record names it.
public enum InjectedFaultKind: String, Sendable, Equatable {
    /// Answered with the service's own error for the fault's status.
    case error
    /// The stream reset with RST_STREAM INTERNAL_ERROR, no answer.
    case reset
    /// The stream never answered.
    case hang
    /// The stream's connection closed with a TCP reset.
    case drop
}
