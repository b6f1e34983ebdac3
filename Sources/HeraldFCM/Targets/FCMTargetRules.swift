import HeraldCore
import HeraldProviderKit

extension Provider {
    /// Firebase Cloud Messaging, HTTP v1 API.
    public static let fcm = Provider(rawValue: "fcm")
}

/// How FCM targets are written: `{"provider": "fcm"}` (`android` is accepted
/// for `fcm`) with one of `token` (a registration token), `fid` (a Firebase
/// installation ID), `topic` (a name, without `/topics/`) or `condition`.
/// Tokens and FIDs are devices and may be registered on channels. The
/// event's `fcm` section gives raw `message` members (``Event/fcm``).
public struct FCMTargetRules: ProviderTargetRules {
    public init() {}

    public var provider: Provider { .fcm }
    public var displayName: String { "FCM" }
    public var aliases: [String] { ["android"] }
    // Static: event decoding asks for the fields once per target.
    private static let fields = ["token", "fid", "topic", "condition"]
    public var addressFields: [String] { Self.fields }
    public var targetRule: String { "an FCM target needs a \"token\", \"fid\", \"topic\" or \"condition\"" }
    public var addressKinds: [Target.Address.Kind] { [.token, .fid, .topic, .condition] }
    public var registrableKinds: [Target.Address.Kind] { [.token, .fid] }

    /// The event's section for FCM, and the `message` members it may give.
    static let eventSection = "fcm"
    static let eventSectionFields = ["android", "apns", "webpush", "fcm_options"]
    public var eventSection: String? { Self.eventSection }

    /// `fcm`: only the documented `message` members, each an object, kept as given.
    public func decodeEventSection(_ section: FieldReader) throws(EventError) -> ProviderExtras {
        try section.rejectUnknownKeys(allowed: Self.eventSectionFields)
        for name in Self.eventSectionFields {
            _ = try section.object(name)
        }
        return ProviderExtras(section.object)
    }

    public func decodeTarget(field: String, of fields: FieldReader) throws(TargetProblem) -> Target {
        switch field {
        case "topic":
            let topic = try fields.addressString(field)
            if topic.hasPrefix("/topics/") {
                throw .failed(
                    EventError(
                        field: fields.path(field), message: "give the topic name without the \"/topics/\" prefix"))
            }
            guard Self.isTopicName(topic) else {
                throw .failed(
                    .mismatch(
                        fields.path(field), expected: "an FCM topic name (letters, digits, '-', '_', '.', '~', '%')",
                        found: .string(topic)))
            }
            return Target(provider: .fcm, address: .topic(topic))
        case "condition":
            return Target(provider: .fcm, address: .condition(try fields.addressString(field)))
        case "fid":
            let fid = try fields.deviceAddress(field, what: "a Firebase installation ID")
            // The alphabet only: the length is left to FCM (docs/fcm.md, "FID targets").
            guard Base64URL.isUnpadded(fid) else {
                throw .badAddress(
                    .mismatch(
                        fields.path(field),
                        expected: "a Firebase installation ID (URL-safe base64: letters, digits, '-', '_')",
                        found: .string(fid)))
            }
            return Target(provider: .fcm, address: .fid(fid))
        default:
            let token = try fields.deviceAddress(field, what: "a device token")
            guard token.everyByte({ $0 > 0x20 && $0 < 0x7F }) else {
                throw .badAddress(
                    .mismatch(
                        fields.path(field), expected: "an FCM registration token (printable ASCII, no spaces)",
                        found: .string(token)))
            }
            return Target(provider: .fcm, address: .token(token))
        }
    }

    public func registrationProblem(kind: Target.Address.Kind) -> String? {
        if registrableKinds.contains(kind) { return nil }
        return kind.isDevice
            ? "FCM devices are registered by token or FID, not by \(kind.field)"
            : "a \(kind.field) is not a device; register a device token or FID"
    }

    public func registrationProblem(_ address: Target.Address) -> String? {
        // As events check FID targets: a FID outside this alphabet is never a device.
        guard address.kind == .fid, !Base64URL.isUnpadded(address.value) else { return nil }
        return "a FID is URL-safe base64 (letters, digits, '-', '_'), found \"\(address.value.truncatedForMessage)\""
    }

    /// FCM's topic pattern, `[a-zA-Z0-9-_.~%]+`.
    static func isTopicName(_ text: String) -> Bool {
        !text.isEmpty
            && text.everyByte { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"):
                    true
                default: false
                }
            }
    }
}

extension Event {
    /// The event's `fcm` section: raw FCM `message` members (`android`,
    /// `apns`, `webpush`, `fcm_options`) merged, RFC 7396, over the message
    /// Herald builds; nil when the event has none.
    public var fcm: JSONObject? {
        get { providerSections[FCMTargetRules.eventSection]?.as(JSONObject.self) }
        set { providerSections[FCMTargetRules.eventSection] = newValue.map { ProviderExtras($0) } }
    }
}

extension ProviderRegistration {
    /// FCM: its target rules and `fcm:` section.
    public static let fcm = ProviderRegistration(targets: FCMTargetRules(), settings: FCMSettings.self)
}
