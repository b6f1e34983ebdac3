/// `herald simulate --config sim.yaml`: everything the simulator can be told,
/// in YAML. Command-line flags override or add to it.
///
/// ```yaml
/// listen: 127.0.0.1:2197
/// record: notifications.jsonl
/// tls: {directory: .herald/dev}          # or certificate + key; client_ca for certificate auth
/// apns: {...}                            # one section per simulated provider (SimulatedProviders.all):
/// fcm: {...}                             # each section's type documents its keys
/// webpush: {...}
/// faults: {error_rate: 0.01, error_status: 503, reset_rate: 0.01, services: [apns, fcm], latency: 20ms, goaway_after_streams: 1000}
/// ```
///
/// The provider sections are held by key, each of its provider's type
/// (`section(SimulatorSettings.FCM.self)`), and decoded from the registered
/// providers, so a provider adds its section without a property here.
public struct SimulatorSettings: Sendable, Equatable, Decodable {
    public var listen: String?
    public var record: String?
    public var tls: TLS?
    /// The provider sections given, by `SimulatedProvider.sectionKey`.
    public private(set) var sections: [String: any SimulatedProvider]
    public var faults: SimulatorFaults?

    public init(
        listen: String? = nil, record: String? = nil, tls: TLS? = nil, sections: [any SimulatedProvider] = [],
        faults: SimulatorFaults? = nil
    ) {
        self.listen = listen
        self.record = record
        self.tls = tls
        self.sections = Dictionary(
            sections.map { (type(of: $0).sectionKey, $0) }, uniquingKeysWith: { _, last in last })
        self.faults = faults
    }

    /// The section of provider `Section`, if the settings have one.
    public func section<Section: SimulatedProvider>(_ type: Section.Type) -> Section? {
        sections[Section.sectionKey] as? Section
    }

    /// Sets (replaces) the section of its provider.
    public mutating func setSection<Section: SimulatedProvider>(_ section: Section) {
        sections[Section.sectionKey] = section
    }

    /// Every registered provider's section, its default where the settings
    /// have none, in the registration order.
    public var providerSections: [any SimulatedProvider] {
        SimulatedProviders.all.map { sectionOrDefault($0) }
    }

    private func sectionOrDefault<Section: SimulatedProvider>(_ type: Section.Type) -> any SimulatedProvider {
        section(type) ?? Section.defaultSection
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        listen = try c.decodeIfPresent(String.self, forKey: Key("listen"))
        record = try c.decodeIfPresent(String.self, forKey: Key("record"))
        tls = try c.decodeIfPresent(TLS.self, forKey: Key("tls"))
        var sections: [String: any SimulatedProvider] = [:]
        for provider in SimulatedProviders.all {
            if let section = try Self.decodeSection(provider, from: c) { sections[provider.sectionKey] = section }
        }
        self.sections = sections
        faults = try c.decodeIfPresent(SimulatorFaults.self, forKey: Key("faults"))
    }

    private static func decodeSection<Section: SimulatedProvider>(
        _ type: Section.Type, from container: KeyedDecodingContainer<Key>
    ) throws -> Section? {
        try container.decodeIfPresent(Section.self, forKey: Key(Section.sectionKey))
    }

    public static func == (lhs: SimulatorSettings, rhs: SimulatorSettings) -> Bool {
        lhs.listen == rhs.listen && lhs.record == rhs.record && lhs.tls == rhs.tls && lhs.faults == rhs.faults
            && lhs.sections.count == rhs.sections.count
            && lhs.sections.allSatisfy { key, section in rhs.sections[key].map(section.isEqual(to:)) ?? false }
    }

    /// A top-level key: the shared ones and the registered providers'
    /// sections, in the order they are read. Any other key is unknown (the
    /// YAML decoder reports it, suggesting the nearest of these).
    struct Key: CodingKey {
        static var names: [String] {
            ["listen", "record", "tls"] + SimulatedProviders.all.map { $0.sectionKey } + ["faults"]
        }

        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) {
            guard Self.names.contains(stringValue) else { return nil }
            self.stringValue = stringValue
        }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The server's TLS identity: given files, or a directory where one is generated (or reused).
    public struct TLS: Sendable, Equatable, Decodable {
        public var certificate: String?
        public var key: String?
        public var directory: String?
        /// Client certificates chaining to this CA are accepted (APNs certificate auth).
        public var clientCA: String?

        public init(certificate: String? = nil, key: String? = nil, directory: String? = nil, clientCA: String? = nil) {
            self.certificate = certificate
            self.key = key
            self.directory = directory
            self.clientCA = clientCA
        }

        enum CodingKeys: String, CodingKey {
            case certificate, key, directory
            case clientCA = "client_ca"
        }
    }
}
