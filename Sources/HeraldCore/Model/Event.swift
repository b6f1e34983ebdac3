/// A notification to deliver: the body of a message on the events exchange,
/// decoded and validated (see ``decode(_:fallbackID:providers:limits:)`` and
/// `docs/event-model.md`).
///
/// Provider-neutral on purpose: the APNs and FCM payload builders read it,
/// routing rules match and amend it (hence `var`), and every target gets one
/// ``Outcome`` carrying the event's ``id``, ``app`` and ``context``.
public struct Event: Sendable, Hashable {
    /// Idempotency key: the body's `id`, else the AMQP `message-id`, else generated.
    public var id: String {
        _read { yield storage.fields.id }
        _modify {
            makeUnique()
            yield &storage.fields.id
        }
    }
    /// Which app's credentials to use; a routing rule may set it.
    public var app: String? {
        _read { yield storage.fields.app }
        _modify {
            makeUnique()
            yield &storage.fields.app
        }
    }
    /// Who receives it. Once decoded, this and ``invalidTargets`` are never
    /// both empty.
    public var targets: [Target] {
        _read { yield storage.fields.targets }
        _modify {
            makeUnique()
            yield &storage.fields.targets
        }
    }
    /// Registry channels to expand into their devices when delivering.
    public var channels: [ChannelTarget] {
        _read { yield storage.fields.channels }
        _modify {
            makeUnique()
            yield &storage.fields.channels
        }
    }
    /// Targets that can never be delivered as written (a malformed token, a
    /// bad topic, an unknown provider): each gets its own terminal outcome,
    /// and the event's other targets are sent as usual.
    public var invalidTargets: [InvalidTarget] {
        _read { yield storage.fields.invalidTargets }
        _modify {
            makeUnique()
            yield &storage.fields.invalidTargets
        }
    }
    /// What the user sees, if anything.
    public var notification: Notification? {
        _read { yield storage.fields.notification }
        _modify {
            makeUnique()
            yield &storage.fields.notification
        }
    }
    /// Custom key/values: beside `aps` for APNs, string-coerced `data` for FCM.
    public var data: JSONObject? {
        _read { yield storage.fields.data }
        _modify {
            makeUnique()
            yield &storage.fields.data
        }
    }
    /// The push type the event names; see ``resolvedPushType``.
    public var pushType: PushType? {
        _read { yield storage.fields.pushType }
        _modify {
            makeUnique()
            yield &storage.fields.pushType
        }
    }
    /// The priority the event names; see ``resolvedPriority``.
    public var priority: Priority? {
        _read { yield storage.fields.priority }
        _modify {
            makeUnique()
            yield &storage.fields.priority
        }
    }
    /// When the event stops being worth sending.
    public var expiry: Expiry? {
        _read { yield storage.fields.expiry }
        _modify {
            makeUnique()
            yield &storage.fields.expiry
        }
    }
    /// Replaces an earlier notification with the same id on the device
    /// (`apns-collapse-id`, FCM `collapse_key`).
    public var collapseID: String? {
        _read { yield storage.fields.collapseID }
        _modify {
            makeUnique()
            yield &storage.fields.collapseID
        }
    }
    /// Wake the app in the background (`content-available: 1`).
    public var contentAvailable: Bool {
        _read { yield storage.fields.contentAvailable }
        _modify {
            makeUnique()
            yield &storage.fields.contentAvailable
        }
    }
    /// Let a notification service extension modify the notification
    /// (`mutable-content: 1`); nil when the event does not say (see
    /// ``resolvedMutableContent``).
    public var mutableContent: Bool? {
        _read { yield storage.fields.mutableContent }
        _modify {
            makeUnique()
            yield &storage.fields.mutableContent
        }
    }
    /// Devices not to send to (typically the sender's own), by token or FID;
    /// their targets get `dropped`.
    public var excludeTokens: Set<String> {
        _read { yield storage.fields.excludeTokens }
        _modify {
            makeUnique()
            yield &storage.fields.excludeTokens
        }
    }
    /// The event's sections for providers that read one of their own
    /// (`apns`, `fcm`, `webpush`), by name: each is the value its provider's
    /// rules decoded it into (``ProviderTargetRules/decodeEventSection(_:)``),
    /// of the provider's own type, which the provider reads through an
    /// accessor of its module (`event.apns`, `event.fcm`, `event.webPushPayload`).
    public var providerSections: [String: ProviderExtras] {
        _read { yield storage.fields.providerSections }
        _modify {
            makeUnique()
            yield &storage.fields.providerSections
        }
    }
    /// Publish a debug trace of this event's delivery (docs/debug-trace.md):
    /// the routing decision and, per target, the request as sent (secrets
    /// redacted) and the provider's answer. Off unless the event or a
    /// route's `set`/`defaults` turns it on.
    public var debug: Bool {
        _read { yield storage.fields.debug }
        _modify {
            makeUnique()
            yield &storage.fields.debug
        }
    }
    /// Echo, in the outcome of each device a channel target reached, the
    /// attributes that device registered with (its time zone, locale and
    /// attribute map: `device` in the outcome). Off unless the event's
    /// `include_device_attributes` turns it on, so outcomes stay small;
    /// targets the event names itself have no registered attributes.
    public var includeDeviceAttributes: Bool {
        _read { yield storage.fields.includeDeviceAttributes }
        _modify {
            makeUnique()
            yield &storage.fields.includeDeviceAttributes
        }
    }
    /// Opaque to Herald; echoed in every outcome.
    public var context: JSONObject? {
        _read { yield storage.fields.context }
        _modify {
            makeUnique()
            yield &storage.fields.context
        }
    }

    public init(
        id: String,
        app: String? = nil,
        targets: [Target],
        channels: [ChannelTarget] = [],
        invalidTargets: [InvalidTarget] = [],
        notification: Notification? = nil,
        data: JSONObject? = nil,
        pushType: PushType? = nil,
        priority: Priority? = nil,
        expiry: Expiry? = nil,
        collapseID: String? = nil,
        contentAvailable: Bool = false,
        mutableContent: Bool? = nil,
        excludeTokens: Set<String> = [],
        providerSections: [String: ProviderExtras] = [:],
        context: JSONObject? = nil,
        debug: Bool = false,
        includeDeviceAttributes: Bool = false
    ) {
        storage = Storage(
            Fields(
                id: id, app: app, context: context, targets: targets, pushType: pushType, priority: priority,
                expiry: expiry, collapseID: collapseID, contentAvailable: contentAvailable,
                mutableContent: mutableContent, debug: debug, channels: channels, invalidTargets: invalidTargets,
                notification: notification, data: data, excludeTokens: excludeTokens,
                providerSections: providerSections, includeDeviceAttributes: includeDeviceAttributes))
    }

    /// The members, shared between copies until one of them changes. An
    /// event is copied into every target's send and prepared request; copying
    /// and destroying fifteen members each time (and the structs holding
    /// them) would be ~8% of the pool's profile samples (`perf` of an
    /// end-to-end run).
    /// Members are read in place (`_read`, so reading `notification?.title`
    /// copies nothing) and changed in place once the box is unique (`_modify`).
    private var storage: Storage

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
        }
    }

    public static func == (lhs: Event, rhs: Event) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// Copy-on-write storage: only ever mutated through a uniquely referenced
    /// `Event` (`makeUnique`), so sharing it between threads is safe.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
        func copy() -> Storage { Storage(fields) }
    }

    /// The members side by side, so equality and hashing stay synthesized.
    /// What every target's outcome reads (id, app, context) comes first, then
    /// the small members every request reads, so those share the box's first
    /// cache lines; the ~200 bytes of `notification` come after them.
    private struct Fields: Hashable {
        var id: String
        var app: String?
        var context: JSONObject?
        var targets: [Target]
        var pushType: PushType?
        var priority: Priority?
        var expiry: Expiry?
        var collapseID: String?
        var contentAvailable: Bool
        var mutableContent: Bool?
        var debug: Bool
        var channels: [ChannelTarget]
        var invalidTargets: [InvalidTarget]
        var notification: Notification?
        var data: JSONObject?
        var excludeTokens: Set<String>
        var providerSections: [String: ProviderExtras]
        var includeDeviceAttributes: Bool
    }
}

extension Event {
    /// The push type to send: the event's own, else ``PushType/background``
    /// when `content_available` is set and the notification shows nothing
    /// (no title, subtitle, body, localized text, sound or badge), else
    /// ``PushType/alert``.
    public var resolvedPushType: PushType {
        if let pushType { return pushType }
        if contentAvailable, !(notification?.isVisible ?? false) { return .background }
        return .alert
    }

    /// The priority to send: the event's own, else the push type's default
    /// (normal for background pushes, high otherwise).
    public var resolvedPriority: Priority {
        priority ?? resolvedPushType.defaultPriority
    }

    /// Whether a notification service extension may modify the notification:
    /// the event's `mutable_content`, else `true` when it has an `image`
    /// (only an extension can download and attach it).
    public var resolvedMutableContent: Bool {
        mutableContent ?? (notification?.image != nil)
    }

    /// `exclude_tokens` as a matcher, built once per event: see ``ExcludedTokens``.
    public func excluded(providers: ProviderCatalog) -> ExcludedTokens {
        ExcludedTokens(excludeTokens, providers: providers)
    }
}

/// The devices of `exclude_tokens`, matched as each provider compares their
/// addresses: APNs tokens are hexadecimal, so `AB12` and `ab12` are the same
/// device (``ProviderTargetRules/devicesIgnoreCase``); FCM registration tokens
/// and FIDs (case-sensitive base64) are opaque and compared exactly. A FID is
/// excluded only when listed itself: nothing relates it to the registration
/// tokens of the same installation.
public struct ExcludedTokens: Sendable {
    private let exact: Set<String>
    private let lowercased: Set<String>
    private let ignoringCase: Set<Provider>

    public init(_ tokens: Set<String>, providers: ProviderCatalog) {
        exact = tokens
        lowercased = Set(tokens.map { $0.lowercased() })
        ignoringCase = providers.devicesIgnoringCase
    }

    public func contains(_ target: Target) -> Bool {
        // Most events exclude nothing: no hashing, no lower-casing per target then.
        guard !exact.isEmpty, target.address.isDevice else { return false }
        let address = target.address.value
        if exact.contains(address) { return true }
        return ignoringCase.contains(target.provider) && lowercased.contains(address.lowercased())
    }
}
