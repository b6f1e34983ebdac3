import HeraldCore

/// Builds the body republished for a retry: the original event with only the
/// targets still to deliver, and its id fixed so every attempt shares it.
///
/// Working on the original JSON (rather than re-encoding the model) keeps
/// every field exactly as the publisher wrote it.
public enum RetryBody {
    public static func make(original: [UInt8], eventID: String, targets: [Target]) -> [UInt8]? {
        guard case .object(var object)? = try? JSONValue.parse(original, limits: JSONLimits(maxDepth: 64, maxBytes: .max)) else {
            return nil
        }
        // The shorthand target, if the event used it: `targets` replaces it.
        for key in ["provider"] + Target.Address.fieldNames { object[key] = nil }
        object["id"] = .string(eventID)
        object["targets"] = .array(targets.map { target in
            var members: [(String, JSONValue)] = [("provider", .string(target.provider.rawValue)),
                                                 (target.address.field, .string(target.address.value))]
            // A device a channel reached keeps its channel: the retry goes to it alone, not to the channel again.
            if let channel = target.channel { members.append(("channel", .string(channel))) }
            // And its APNs environment and topic, so the retry goes where the first attempt went.
            if let environment = target.apns.environment {
                members.append((APNsDeviceOverrides.environmentField, .string(environment.rawValue)))
            }
            if let topic = target.apns.topic { members.append((APNsDeviceOverrides.topicField, .string(topic))) }
            return .object(JSONObject(members))
        })
        return JSONValue.object(object).serialized
    }
}
