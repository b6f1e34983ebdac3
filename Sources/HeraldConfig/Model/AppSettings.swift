import HeraldCore
import HeraldProviderKit

/// One entry under `apps:`: the credentials of one app, one section per
/// provider it delivers through (`apns:`, `fcm:`, `webpush:`, or several).
/// The sections a key may name are those of the providers the config is
/// loaded with (`ConfigLoader.load(file:environment:providers:)`).
public struct AppSettings: Sendable, Equatable, Decodable {
    /// The app's provider sections, by provider.
    public let sections: [Provider: any ProviderSettings]
    /// The providers this app has a section for, in the order the config's providers are listed.
    public let configuredProviders: [Provider]
    /// How many times a request whose answer was lost (a timeout, or the
    /// connection lost after it was written) is sent again at once, as it was
    /// (the same `apns-id`), before the retry policy takes over. 0 to 5.
    public var timeoutRetries: Int
    /// Who may send for this app (`publishers`); nil: anyone who can write
    /// to the exchanges, which `herald check` warns about.
    public var publishers: PublisherSettings?

    public static let defaultTimeoutRetries = 1

    /// The section types an app's mapping may hold while a config is decoded:
    /// `ConfigLoader` sets them, from the providers it is given, around its
    /// decode (a `CodingKey`, which says which keys are known, is given no decoder).
    @TaskLocal static var sectionTypes: [any ProviderSettings.Type] = []

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SectionKey.self)
        var sections: [Provider: any ProviderSettings] = [:]
        for type in Self.sectionTypes {
            if let section = try Self.decodeSection(type, from: c) { sections[type.provider] = section }
        }
        self.sections = sections
        configuredProviders = Self.sectionTypes.map { $0.provider }.filter { sections[$0] != nil }
        timeoutRetries =
            try c.decodeIfPresent(Int.self, forKey: SectionKey("timeout_retries")) ?? Self.defaultTimeoutRetries
        publishers = try c.decodeIfPresent(PublisherSettings.self, forKey: SectionKey("publishers"))
    }

    private static func decodeSection<Section: ProviderSettings>(
        _ type: Section.Type, from container: KeyedDecodingContainer<SectionKey>
    ) throws -> Section? {
        try container.decodeIfPresent(Section.self, forKey: SectionKey(Section.provider.rawValue))
    }

    /// The app's section of type `Section`, if it has one.
    public func section<Section: ProviderSettings>(_ type: Section.Type) -> Section? {
        sections[Section.provider] as? Section
    }

    /// The app's sections, in the order the config's providers are listed.
    public var orderedSections: [any ProviderSettings] {
        configuredProviders.compactMap { sections[$0] }
    }

    /// The providers this app can deliver through, e.g. `["apns", "fcm"]`.
    public var providers: [String] { configuredProviders.map(\.rawValue) }

    public static func == (lhs: AppSettings, rhs: AppSettings) -> Bool {
        lhs.timeoutRetries == rhs.timeoutRetries && lhs.publishers == rhs.publishers
            && lhs.sections.count == rhs.sections.count
            && lhs.sections.allSatisfy { provider, section in rhs.sections[provider].map(section.isEqual(to:)) ?? false
            }
    }

    /// A key of an app's mapping: the name of one of the config's providers,
    /// `timeout_retries` or `publishers`. Any other key is unknown, and reported so.
    struct SectionKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) {
            guard
                stringValue == "timeout_retries" || stringValue == "publishers"
                    || AppSettings.sectionTypes.contains(where: { $0.provider.rawValue == stringValue })
            else { return nil }
            self.stringValue = stringValue
        }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
