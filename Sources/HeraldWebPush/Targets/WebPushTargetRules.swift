import HeraldCore
import HeraldProviderKit

extension Provider {
    /// Web Push (RFC 8030) to a browser's push service: messages encrypted
    /// for the subscription (RFC 8291), the sender identified by VAPID (RFC 8292).
    public static let webpush = Provider(rawValue: "webpush")
}

extension Target.Address.Kind {
    /// A browser's push subscription, by its endpoint URL; its keys are the
    /// target's ``Target/webPushKeys``.
    public static let endpoint = Target.Address.Kind(field: "endpoint", isDevice: true)
}

/// How Web Push targets are written: `{"provider": "webpush", "subscription":
/// {"endpoint": "https://…", "keys": {"p256dh": …, "auth": …}}}`, as a
/// browser's `PushSubscription.toJSON()` writes it. The event's `webpush`
/// section may give the message's `payload`. A registry `register` command
/// gives a subscription the same way; the registry keeps its keys and
/// channels expand to it.
public struct WebPushTargetRules: ProviderTargetRules {
    public init() {}

    public var provider: Provider { .webpush }
    public var displayName: String { "Web Push" }
    // Static: event decoding asks for the fields once per target.
    private static let fields = [WebPushKeys.subscriptionField]
    public var addressFields: [String] { Self.fields }
    public var targetRule: String { "a Web Push target needs the browser's \"subscription\" (endpoint and keys)" }
    public var addressKinds: [Target.Address.Kind] { [.endpoint] }
    public var registrableKinds: [Target.Address.Kind] { [.endpoint] }
    public var registrationTargetField: String? { WebPushKeys.subscriptionField }

    public func registeredDeviceValues(of target: Target) -> [String: String] {
        guard let keys = target.webPushKeys else { return [:] }
        return [RegisteredDeviceField.p256dh: keys.p256dh, RegisteredDeviceField.auth: keys.auth]
    }

    public func registeredExtras(_ column: (String) -> String?) -> ProviderExtras {
        guard let p256dh = column(RegisteredDeviceField.p256dh), let auth = column(RegisteredDeviceField.auth) else {
            return ProviderExtras()
        }
        return ProviderExtras(WebPushKeys(p256dh: p256dh, auth: auth))
    }

    public func decodeTarget(field: String, of fields: FieldReader) throws(TargetProblem) -> Target {
        do throws(EventError) {
            let (endpoint, keys) = try Self.decodeSubscription(fields)
            return Target(
                provider: .webpush, address: Target.Address(.endpoint, endpoint),
                extras: ProviderExtras(keys))
        } catch {
            throw .failed(error)
        }
    }

    public func addressGiven(in fields: FieldReader) -> Target.Address? {
        fields.value(WebPushKeys.subscriptionField)?.objectValue?["endpoint"]?.stringValue.map {
            Target.Address(.endpoint, $0)
        }
    }

    public func eventMembers(of target: Target) -> [(String, JSONValue)] {
        let subscription: JSONValue =
            target.webPushKeys?.subscriptionJSON(endpoint: target.address.value)
            ?? .object(JSONObject([("endpoint", .string(target.address.value))]))
        return [("provider", .string(provider.rawValue)), (WebPushKeys.subscriptionField, subscription)]
    }

    /// The event's section for Web Push: `{"payload": …}`.
    static let eventSection = "webpush"
    public var eventSection: String? { Self.eventSection }

    /// `webpush.payload`: a string (sent as its UTF-8 bytes) or an object
    /// (sent as its JSON), kept as ``Event/webPushPayload``.
    public func decodeEventSection(_ section: FieldReader) throws(EventError) -> ProviderExtras {
        try section.rejectUnknownKeys(allowed: ["payload"])
        guard let payload = section.value("payload") else { return ProviderExtras() }
        switch payload {
        case .string, .object: return ProviderExtras(payload)
        default: throw .mismatch(section.path("payload"), expected: "a string or an object", found: payload)
        }
    }

    /// `subscription`: `{"endpoint": "https://…", "keys": {"p256dh": …, "auth": …}}`
    /// (other members, such as `expirationTime`, are ignored). The keys'
    /// shape is checked here; that `p256dh` is a point on the curve, by the
    /// provider before it encrypts.
    static func decodeSubscription(_ fields: FieldReader) throws(EventError) -> (endpoint: String, keys: WebPushKeys) {
        let field = WebPushKeys.subscriptionField
        guard let object = try fields.object(field) else {
            throw EventError(field: fields.path(field), message: "missing")
        }
        let subscription = FieldReader(object: object, path: fields.path(field))
        guard let endpoint = try subscription.string("endpoint", nonEmpty: true) else {
            throw EventError(
                field: subscription.path("endpoint"), message: "missing; the push service's URL for this browser")
        }
        let limit = Event.maxTokenBytes
        guard endpoint.hasPrefix("https://"), endpoint.utf8.count <= limit,
            endpoint.everyByte({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw EventError(
                field: subscription.path("endpoint"),
                message:
                    "expected an https:// URL of at most \(limit) bytes without spaces, found \(JSONText.quoted(endpoint.truncatedForMessage))"
            )
        }
        guard let keysObject = try subscription.object("keys") else {
            throw EventError(field: subscription.path("keys"), message: "missing; give \"p256dh\" and \"auth\"")
        }
        let keys = FieldReader(object: keysObject, path: subscription.path("keys"))
        func key(_ name: String, bytes: Int, what: String) throws(EventError) -> String {
            guard let value = try keys.string(name, nonEmpty: true) else {
                throw EventError(field: keys.path(name), message: "missing; \(what)")
            }
            guard let decoded = Base64URL.decode(value), decoded.count == bytes else {
                // The value is not repeated: `auth` is a secret.
                throw EventError(
                    field: keys.path(name), message: "expected URL-safe base64 of \(bytes) bytes (\(what))")
            }
            return value
        }
        let p256dh = try key("p256dh", bytes: WebPushKeys.publicKeyBytes, what: "the browser's P-256 public key")
        let auth = try key("auth", bytes: WebPushKeys.authSecretBytes, what: "the subscription's authentication secret")
        return (endpoint, WebPushKeys(p256dh: p256dh, auth: auth))
    }
}

extension Event {
    /// The event's `webpush.payload`, sent instead of the message Herald
    /// builds (a string as its UTF-8 bytes, an object as its JSON); nil when
    /// the event gives none.
    public var webPushPayload: JSONValue? {
        get { providerSections[WebPushTargetRules.eventSection]?.as(JSONValue.self) }
        set { providerSections[WebPushTargetRules.eventSection] = newValue.map { ProviderExtras($0) } }
    }
}

extension ProviderRegistration {
    /// Web Push: its target rules and `webpush:` section.
    public static let webpush = ProviderRegistration(targets: WebPushTargetRules(), settings: WebPushSettings.self)
}
