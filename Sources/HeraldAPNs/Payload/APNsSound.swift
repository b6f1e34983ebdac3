import HeraldCore

/// `aps.sound`: a sound file name (or `default`), or the critical-alert
/// dictionary `{"critical": 1, "name": ..., "volume": ...}`.
///
/// - Important: critical alerts need Apple's critical-alert entitlement;
///   without it the device plays the sound as a normal one.
public enum APNsSound: Sendable, Hashable {
    case named(String)
    /// `critical` false with a volume still needs the dictionary form.
    case dictionary(name: String, critical: Bool, volume: Double?)

    /// The form the event's sound needs (`Sound.needsDictionary`).
    public init(_ sound: Event.Sound) {
        self =
            sound.needsDictionary
            ? .dictionary(name: sound.name, critical: sound.critical, volume: sound.volume)
            : .named(sound.name)
    }

    public var jsonValue: JSONValue {
        switch self {
        case .named(let name):
            return .string(name)
        case .dictionary(let name, let critical, let volume):
            var object = JSONObject()
            object["critical"] = .number(JSONNumber(critical ? 1 : 0))
            object["name"] = .string(name)
            if let volume, let number = JSONNumber(volume) { object["volume"] = .number(number) }
            return .object(object)
        }
    }
}
