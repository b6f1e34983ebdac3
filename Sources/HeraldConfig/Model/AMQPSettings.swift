/// The `amqp:` section: the broker, the events queue and the names of the
/// exchanges Herald declares (docs/amqp.md "Topology").
public struct AMQPSettings: Sendable, Equatable, Decodable {
    /// Which RabbitMQ queue type holds the events.
    public enum QueueType: String, Sendable, Decodable, CaseIterable {
        /// Replicated, durable, with poison-message handling: the default for production.
        case quorum
        /// Lighter, single-node: fine for development.
        case classic
    }

    /// The broker, when it is one address.
    public var url: String
    /// The broker's addresses when it is a cluster (`urls:`, instead of `url`):
    /// tried in turn on every connect and reconnect (docs/scaling.md), each
    /// with TLS files of its own if it names any.
    public var urls: [AMQPAddressSettings]
    /// Shuffle `urls` at start, so instances spread over the nodes.
    public var shuffle: Bool
    public var prefetch: Int
    /// Events processed at once; received events beyond it wait their turn as
    /// messages. Effective value: `min(prefetch, concurrency)`.
    public var concurrency: Int
    public var queue: String
    public var queueType: QueueType
    public var bindings: [String]
    /// Quorum queues: deliveries after which the broker dead-letters an event
    /// no consumer settled (one that crashes or stalls every instance), to
    /// `dead_letter_exchange`. Declared as the queue's `x-delivery-limit`.
    public var deliveryLimit: Int
    public var eventsExchange: String
    public var retryExchange: String
    public var deadLetterExchange: String
    public var deadLetterQueue: String
    public var resultsExchange: String
    /// With a `registry:` section: the topic exchange registry commands are published to, and the queue Herald consumes them from.
    public var registryExchange: String
    public var registryQueue: String
    public var heartbeat: ConfigDuration
    /// How long the broker lets a consumer hold an event unacked before it
    /// takes it back (`x-consumer-timeout`); 0 leaves the broker's own
    /// setting. Must exceed the longest Herald holds one (`ConfigValidator`).
    public var consumerTimeout: ConfigDuration
    /// How long an event's ack may wait for others to leave with it as one
    /// `multiple` ack (0: each turn's acks at its end). See docs/amqp.md.
    public var ackDelay: ConfigDuration
    /// Extra trust root for `amqps://` brokers (a node of `urls` may name its own).
    public var caFile: String?
    /// Client certificate and key for `amqps://` brokers that require one (a node of `urls` may name its own).
    public var certFile: String?
    public var keyFile: String?

    /// Every address Herald may connect to: `urls` when given, else `url`.
    public var addresses: [AMQPAddressSettings] { urls.isEmpty ? [AMQPAddressSettings(url: url)] : urls }

    /// Where `addresses[index]` is written in the config (the entry; its
    /// keys are below it).
    public func addressKey(_ index: Int, in path: ConfigPath) -> ConfigPath {
        urls.isEmpty ? path.key("url") : path.key("urls").index(index)
    }

    /// Where the URL of `addresses[index]` is written: the entry, or its `url` key.
    public func urlKey(_ index: Int, in path: ConfigPath) -> ConfigPath {
        let entry = addressKey(index, in: path)
        return addresses[index].isMapping ? entry.key("url") : entry
    }

    /// `address` with the TLS files a connection to it uses: the node's own
    /// CA file, else the section's; the node's client certificate and key as
    /// a pair, else the section's pair.
    public func withTLSFiles(_ address: AMQPAddressSettings) -> AMQPAddressSettings {
        var connection = address
        connection.caFile = address.caFile ?? caFile
        if address.certFile == nil && address.keyFile == nil {
            connection.certFile = certFile
            connection.keyFile = keyFile
        }
        return connection
    }

    /// How many events are processed at once: `concurrency`, never more than `prefetch`.
    public var effectiveConcurrency: Int { min(prefetch, concurrency) }

    public static let defaultURL = "amqp://guest:guest@127.0.0.1:5672/%2f"

    public init() {
        url = AMQPSettings.defaultURL
        urls = []
        shuffle = true
        prefetch = 1024
        concurrency = 1024
        queue = "herald.events"
        queueType = .quorum
        bindings = ["#"]
        deliveryLimit = 20
        eventsExchange = "herald.events"
        retryExchange = "herald.retry"
        deadLetterExchange = "herald.dead"
        deadLetterQueue = "herald.dead"
        resultsExchange = "herald.results"
        registryExchange = "herald.registry"
        registryQueue = "herald.registry"
        heartbeat = .seconds(30)
        consumerTimeout = .seconds(1800)
        ackDelay = ConfigDuration(milliseconds: 5)
    }

    enum CodingKeys: String, CodingKey {
        case url, urls, shuffle, prefetch, concurrency, queue, bindings, heartbeat
        case queueType = "queue_type"
        case ackDelay = "ack_delay"
        case consumerTimeout = "consumer_timeout"
        case deliveryLimit = "delivery_limit"
        case eventsExchange = "events_exchange"
        case retryExchange = "retry_exchange"
        case deadLetterExchange = "dead_letter_exchange"
        case deadLetterQueue = "dead_letter_queue"
        case resultsExchange = "results_exchange"
        case registryExchange = "registry_exchange"
        case registryQueue = "registry_queue"
        case caFile = "ca_file"
        case certFile = "cert_file"
        case keyFile = "key_file"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = AMQPSettings()
        url = try c.decodeIfPresent(String.self, forKey: .url) ?? d.url
        let listed = try c.decodeIfPresent([AMQPAddressSettings].self, forKey: .urls)
        urls = listed ?? d.urls
        if c.contains(.urls) {
            if c.contains(.url) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: c.codingPath + [CodingKeys.urls],
                        debugDescription: "set either url (one address) or urls (the nodes of a cluster), not both"))
            }
            if listed?.isEmpty == true {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: c.codingPath + [CodingKeys.urls],
                        debugDescription: "expected at least one address"))
            }
        }
        shuffle = try c.decodeIfPresent(Bool.self, forKey: .shuffle) ?? d.shuffle
        prefetch = try c.decodeIfPresent(Int.self, forKey: .prefetch) ?? d.prefetch
        concurrency = try c.decodeIfPresent(Int.self, forKey: .concurrency) ?? d.concurrency
        queue = try c.decodeIfPresent(String.self, forKey: .queue) ?? d.queue
        queueType = try c.decodeIfPresent(QueueType.self, forKey: .queueType) ?? d.queueType
        bindings = try c.decodeIfPresent([String].self, forKey: .bindings) ?? d.bindings
        deliveryLimit = try c.decodeIfPresent(Int.self, forKey: .deliveryLimit) ?? d.deliveryLimit
        eventsExchange = try c.decodeIfPresent(String.self, forKey: .eventsExchange) ?? d.eventsExchange
        retryExchange = try c.decodeIfPresent(String.self, forKey: .retryExchange) ?? d.retryExchange
        deadLetterExchange = try c.decodeIfPresent(String.self, forKey: .deadLetterExchange) ?? d.deadLetterExchange
        deadLetterQueue = try c.decodeIfPresent(String.self, forKey: .deadLetterQueue) ?? d.deadLetterQueue
        resultsExchange = try c.decodeIfPresent(String.self, forKey: .resultsExchange) ?? d.resultsExchange
        registryExchange = try c.decodeIfPresent(String.self, forKey: .registryExchange) ?? d.registryExchange
        registryQueue = try c.decodeIfPresent(String.self, forKey: .registryQueue) ?? d.registryQueue
        heartbeat = try c.decodeIfPresent(ConfigDuration.self, forKey: .heartbeat) ?? d.heartbeat
        ackDelay = try c.decodeIfPresent(ConfigDuration.self, forKey: .ackDelay) ?? d.ackDelay
        consumerTimeout = try c.decodeIfPresent(ConfigDuration.self, forKey: .consumerTimeout) ?? d.consumerTimeout
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        certFile = try c.decodeIfPresent(String.self, forKey: .certFile)
        keyFile = try c.decodeIfPresent(String.self, forKey: .keyFile)
    }
}
