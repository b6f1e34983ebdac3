import HeraldCore

/// Builds the body republished for a retry: the original event with only the
/// targets still to deliver, and its id fixed so every attempt shares it.
///
/// Working on the original JSON (rather than re-encoding the model) keeps
/// every field exactly as the publisher wrote it.
public enum RetryBody {
    /// - Parameter providers: writes each target as its provider's rules read it back.
    public static func make(original: [UInt8], eventID: String, targets: [Target], providers: ProviderCatalog) -> [UInt8]? {
        guard case .object(var object)? = try? JSONValue.parse(original, limits: JSONLimits(maxDepth: 64, maxBytes: .max)) else {
            return nil
        }
        // The shorthand target, if the event used it: `targets` replaces it.
        for key in providers.targetFieldNames { object[key] = nil }
        object["id"] = .string(eventID)
        // A device a channel reached keeps its channel (the retry goes to it alone, not to the channel
        // again), an APNs device its environment and topic, a Web Push target its keys.
        object["targets"] = .array(targets.map { $0.eventJSON(providers: providers) })
        return JSONValue.object(object).serialized
    }
}
