import HeraldCore
import HeraldProviderKit

extension Provider {
    /// Apple Push Notification service (HTTP/2, `POST /3/device/<token>`).
    public static let apns = Provider(rawValue: "apns")
}

/// How APNs targets are written: `{"provider": "apns", "token": "<hex>"}`
/// (`ios` is accepted for `apns`), optionally with the device's own
/// `environment` and `apns_topic`. Tokens are hexadecimal, so case does not
/// tell two devices apart. Devices may be registered on channels.
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
    public var devicesHaveEnvironmentAndTopic: Bool { true }
    public var devicesIgnoreCase: Bool { true }
    public var registrableKinds: [Target.Address.Kind] { [.token] }

    /// The longest APNs device token accepted, in hexadecimal digits: 200
    /// bytes. Tokens are 32 bytes (64 digits) today; Apple says their size may
    /// change and not to hard-code it, so the cap leaves room for six times
    /// today's size while keeping a token from being a 4 KiB key in every
    /// registration row, outcome and request path (docs/apns.md, "Device tokens").
    public static let maxTokenHexDigits = 400

    public func decodeTarget(field: String, of fields: FieldReader) throws(TargetProblem) -> Target {
        let token = try fields.deviceAddress(field, what: "a device token")
        guard Self.isHex(token) else {
            throw .badAddress(.mismatch(fields.path(field), expected: "a hexadecimal APNs device token", found: .string(token)))
        }
        if let problem = Self.lengthProblem(token) { throw .badAddress(EventError(field: fields.path(field), message: problem)) }
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
        default: kind.isDevice ? "APNs devices are registered by token, not by \(kind.field)"
            : "a \(kind.field) is not a device; register a device token"
        }
    }

    public func registrationProblem(_ address: Target.Address) -> String? {
        guard Self.isHex(address.value) else {
            return "an APNs device token is hexadecimal, found \"\(address.value.truncatedForMessage)\""
        }
        return Self.lengthProblem(address.value).map { "the device \(address.field) \($0)" }
    }

    static func isHex(_ text: String) -> Bool {
        !text.isEmpty && text.everyByte { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }
    }
}

extension ProviderRegistration {
    /// APNs: its target rules and `apns:` section.
    public static let apns = ProviderRegistration(targets: APNsTargetRules(), settings: APNsSettings.self)
}
