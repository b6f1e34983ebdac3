import HeraldCore

/// Builds the bodies republished for an event's retries and dead letters:
/// the original event with only the targets they are for, and its id fixed
/// so every attempt shares it.
///
/// Working on the original JSON (rather than re-encoding the model) keeps
/// every field exactly as the publisher wrote it. The original is parsed
/// once, however many bodies one event needs (a retry per delay tier, the
/// dead letter of its refused targets, that of its exhausted ones).
public struct RetryBody: Sendable {
    private let object: JSONObject
    private let providers: ProviderCatalog

    /// Nil when `original` is not a JSON object.
    /// - Parameter providers: writes each target as its provider's rules read it back.
    public init?(original: [UInt8], providers: ProviderCatalog) {
        let parsed = try? JSONValue.parse(original, limits: JSONLimits(maxDepth: 64, maxBytes: .max))
        guard case .object(var object)? = parsed else { return nil }
        // The shorthand target, if the event used it: `targets` replaces it.
        for key in providers.targetFieldNames { object[key] = nil }
        self.object = object
        self.providers = providers
    }

    /// The body for `targets` alone, with `eventID` as its id.
    public func body(eventID: String, targets: [Target]) -> [UInt8] {
        var object = object
        object["id"] = .string(eventID)
        // A device a channel reached keeps its channel (the retry goes to it alone, not to the channel
        // again), an APNs device its environment and topic, a Web Push target its keys.
        object["targets"] = .array(targets.map { $0.eventJSON(providers: providers) })
        return JSONValue.object(object).serialized
    }

    /// The body for `targets` of the event `original`; nil when `original` is not a JSON object.
    public static func make(
        original: [UInt8], eventID: String, targets: [Target],
        providers: ProviderCatalog
    ) -> [UInt8]? {
        RetryBody(original: original, providers: providers)?.body(eventID: eventID, targets: targets)
    }
}
