import HeraldConfig

/// Trouble the simulator makes on purpose, so clients' retry paths get
/// exercised: random server errors, added latency, a request-rate limit,
/// GOAWAY after a number of streams, fewer concurrent streams per connection.
///
/// YAML (`faults:` in the simulator config):
/// `{error_rate: 0.1, error_status: 503, latency: 20ms, goaway_after_streams: 1000,
///   max_streams: 100, rate_limit: {requests: 500, per: 1s}}`.
public struct SimulatorFaults: Sendable, Equatable, Decodable {
    /// A request-rate limit over all requests: over it, 429 (APNs TooManyRequests).
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
        }
    }

    /// Fraction of requests (0...1) answered with `errorStatus` instead of being handled.
    public var errorRate: Double
    /// 500 (InternalServerError), 503 (ServiceUnavailable) or 429 (TooManyRequests).
    public var errorStatus: Int
    /// Added to every answer.
    public var latency: ConfigDuration?
    /// Each connection gets GOAWAY after this many streams (the HTTP/2 server does it).
    public var goAwayAfterStreams: Int?
    /// SETTINGS_MAX_CONCURRENT_STREAMS each connection advertises (the HTTP/2
    /// server's 1000 when nil): a provider that allows fewer streams makes a
    /// client open connections or queue requests (bench/e2e.sh measures it).
    public var maxStreams: Int?
    public var rateLimit: RateLimit?

    public init(
        errorRate: Double = 0, errorStatus: Int = 500, latency: ConfigDuration? = nil, goAwayAfterStreams: Int? = nil,
        maxStreams: Int? = nil, rateLimit: RateLimit? = nil
    ) {
        self.errorRate = errorRate
        self.errorStatus = errorStatus
        self.latency = latency
        self.goAwayAfterStreams = goAwayAfterStreams
        self.maxStreams = maxStreams
        self.rateLimit = rateLimit
    }

    /// No faults at all.
    public static let none = SimulatorFaults()

    enum CodingKeys: String, CodingKey {
        case latency
        case errorRate = "error_rate"
        case errorStatus = "error_status"
        case goAwayAfterStreams = "goaway_after_streams"
        case maxStreams = "max_streams"
        case rateLimit = "rate_limit"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        errorRate = try c.decodeIfPresent(Double.self, forKey: .errorRate) ?? 0
        errorStatus = try c.decodeIfPresent(Int.self, forKey: .errorStatus) ?? 500
        latency = try c.decodeIfPresent(ConfigDuration.self, forKey: .latency)
        goAwayAfterStreams = try c.decodeIfPresent(Int.self, forKey: .goAwayAfterStreams)
        maxStreams = try c.decodeIfPresent(Int.self, forKey: .maxStreams)
        rateLimit = try c.decodeIfPresent(RateLimit.self, forKey: .rateLimit)
        try validate(codingPath: decoder.codingPath)
    }

    /// Refuses values that cannot work, naming the key.
    func validate(codingPath: [any CodingKey]) throws {
        func fail(_ key: CodingKeys, _ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: message))
        }
        guard (0...1).contains(errorRate) else { throw fail(.errorRate, "expected a fraction from 0 to 1, found \(errorRate)") }
        guard [429, 500, 503].contains(errorStatus) else {
            throw fail(.errorStatus, "expected 429, 500 or 503, found \(errorStatus)")
        }
        if let goAwayAfterStreams, goAwayAfterStreams < 1 {
            throw fail(.goAwayAfterStreams, "expected a positive number of streams, found \(goAwayAfterStreams)")
        }
        if let maxStreams, maxStreams < 1 {
            throw fail(.maxStreams, "expected a positive number of streams, found \(maxStreams)")
        }
        if let rateLimit, rateLimit.requests < 1 || rateLimit.per.milliseconds < 1 {
            throw fail(.rateLimit, "expected at least 1 request per a positive duration")
        }
    }
}
