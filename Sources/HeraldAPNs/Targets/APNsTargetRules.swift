import HeraldCore
import HeraldProviderKit

extension Provider {
    /// Apple Push Notification service (HTTP/2, `POST /3/device/<token>`).
    public static let apns = Provider(rawValue: "apns")
}

/// How APNs targets are written: `{"provider": "apns", "token": "<hex>"}`
/// (`ios` is accepted for `apns`), optionally with the device's own
/// `environment` and `apns_topic`. Tokens are hexadecimal, so case does not
/// tell two devices apart. Devices may be registered on channels. The
/// event's `apns` section gives raw headers and payload (``APNsOverrides``).
public struct APNsTargetRules: ProviderTargetRules {
    public init() {}

    public var provider: Provider { .apns }
    public var displayName: String { "APNs" }
    public var aliases: [String] { ["ios"] }
    // Static: event decoding asks for the fields once per target.
    private static let fields = ["token"]
    public var addressFields: [String] { Self.fields }
    public var targetRule: String { "an APNs target needs a device \"token\"" }
    public var addressKinds: [Target.Address.Kind] { [.token] }
    public var extraFields: [String] { [APNsDeviceOverrides.environmentField, APNsDeviceOverrides.topicField] }
    public var registrationFields: [String] { ["environment", "topic"] }
    public var devicesIgnoreCase: Bool { true }
    public var registrableKinds: [Target.Address.Kind] { [.token] }
    public var eventSection: String? { APNsOverrides.section }

    public func decodeEventSection(_ section: FieldReader) throws(EventError) -> ProviderExtras {
        ProviderExtras(try APNsOverrides.decode(section))
    }

    /// The longest APNs device token accepted, in hexadecimal digits: 200
    /// bytes. Tokens are 32 bytes (64 digits) today; Apple says their size may
    /// change and not to hard-code it, so the cap leaves room for six times
    /// today's size while keeping a token from being a 4 KiB key in every
    /// registration row, outcome and request path (docs/apns.md, "Device tokens").
    public static let maxTokenHexDigits = 400

    public func decodeTarget(field: String, of fields: FieldReader) throws(TargetProblem) -> Target {
        let token = try fields.deviceAddress(field, what: "a device token")
        guard Self.isHex(token) else {
            throw .badAddress(
                .mismatch(fields.path(field), expected: "a hexadecimal APNs device token", found: .string(token)))
        }
        if let problem = Self.lengthProblem(token) {
            throw .badAddress(EventError(field: fields.path(field), message: problem))
        }
        return Target(provider: .apns, address: .token(token))
    }

    /// Why a hexadecimal `token` is too long to be an APNs device token; nil
    /// when it is not. The one length rule for event targets and registrations.
    static func lengthProblem(_ token: String) -> String? {
        let digits = token.utf8.count
        guard digits > maxTokenHexDigits else { return nil }
        return "is \(digits) hex digits, over the limit of \(maxTokenHexDigits) for an APNs device token "
            + "(\(maxTokenHexDigits / 2) bytes; today's tokens are 64)"
    }

    public func registrationProblem(kind: Target.Address.Kind) -> String? {
        switch kind {
        case .token: nil
        case .fid: "APNs has no FIDs; an APNs device is a \"token\""
        default:
            kind.isDevice
                ? "APNs devices are registered by token, not by \(kind.field)"
                : "a \(kind.field) is not a device; register a device token"
        }
    }

    public func registrationProblem(_ address: Target.Address) -> String? {
        guard Self.isHex(address.value) else {
            return "an APNs device token is hexadecimal, found \"\(address.value.truncatedForMessage)\""
        }
        return Self.lengthProblem(address.value).map { "the device \(address.field) \($0)" }
    }

    /// The device's own `environment` and `apns_topic`: a known environment, a topic like a bundle ID.
    public func decodeExtras(of fields: FieldReader) throws(EventError) -> ProviderExtras {
        var overrides = APNsDeviceOverrides()
        let environmentField = APNsDeviceOverrides.environmentField
        if let name = try fields.string(environmentField) {
            guard let environment = APNsEnvironment(rawValue: name) else {
                throw .mismatch(fields.path(environmentField), expected: APNsEnvironment.expected, found: .string(name))
            }
            overrides.environment = environment
        }
        let topicField = APNsDeviceOverrides.topicField
        if let topic = try fields.string(topicField) {
            if let problem = APNsDeviceOverrides.problem(withTopic: topic) {
                throw EventError(field: fields.path(topicField), message: problem)
            }
            overrides.topic = topic
        }
        return overrides.isEmpty ? ProviderExtras() : ProviderExtras(overrides)
    }

    public func extrasMembers(of target: Target) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        let overrides = target.apns
        if let environment = overrides.environment {
            members.append((APNsDeviceOverrides.environmentField, .string(environment.rawValue)))
        }
        if let topic = overrides.topic { members.append((APNsDeviceOverrides.topicField, .string(topic))) }
        return members
    }

    public func registrationProblem(field: String, value: String) -> String? {
        switch field {
        case "environment":
            APNsEnvironment(rawValue: value) != nil
                ? nil
                : "unknown APNs environment \"\(value.truncatedForMessage)\" (expected \(APNsEnvironment.expected))"
        case "topic":
            APNsDeviceOverrides.problem(withTopic: value).map { "topic \"\(value.truncatedForMessage)\" \($0)" }
        default: nil
        }
    }

    public func registeredExtras(_ column: (String) -> String?) -> ProviderExtras {
        let overrides = APNsDeviceOverrides(
            environment: column("environment").flatMap(APNsEnvironment.init(rawValue:)),
            topic: column("topic"))
        return overrides.isEmpty ? ProviderExtras() : ProviderExtras(overrides)
    }

    static func isHex(_ text: String) -> Bool {
        !text.isEmpty
            && text.everyByte { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"):
                    true
                default: false
                }
            }
    }
}

extension ProviderRegistration {
    /// APNs: its target rules and `apns:` section.
    public static let apns = ProviderRegistration(targets: APNsTargetRules(), settings: APNsSettings.self)
}
