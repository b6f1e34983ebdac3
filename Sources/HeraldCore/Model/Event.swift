/// A notification to deliver: the body of a message on the events exchange,
/// decoded and validated (see ``decode(_:fallbackID:limits:)`` and
/// `docs/event-model.md`).
///
/// Provider-neutral on purpose: the APNs and FCM payload builders read it,
/// routing rules match and amend it (hence `var`), and every target gets one
/// ``Outcome`` carrying the event's ``id``, ``app`` and ``context``.
public struct Event: Sendable, Hashable {
    /// Idempotency key: the body's `id`, else the AMQP `message-id`, else generated.
    public var id: String
    /// Which app's credentials to use; a routing rule may set it.
    public var app: String?
    /// Who receives it; never empty once decoded.
    public var targets: [Target]
    /// What the user sees, if anything.
    public var notification: Notification?
    /// Custom key/values: beside `aps` for APNs, string-coerced `data` for FCM.
    public var data: JSONObject?
    /// The push type the event names; see ``resolvedPushType``.
    public var pushType: PushType?
    /// The priority the event names; see ``resolvedPriority``.
    public var priority: Priority?
    /// When the event stops being worth sending.
    public var expiry: Expiry?
    /// Replaces an earlier notification with the same id on the device
    /// (`apns-collapse-id`, FCM `collapse_key`).
    public var collapseID: String?
    /// Wake the app in the background (`content-available: 1`).
    public var contentAvailable: Bool
    /// Let a notification service extension modify the notification (`mutable-content: 1`).
    public var mutableContent: Bool
    /// Device tokens not to send to (typically the sender's own devices);
    /// their targets get `dropped`.
    public var excludeTokens: Set<String>
    /// Raw APNs headers and payload merged over what Herald builds.
    public var apns: APNsOverrides?
    /// Raw FCM `message` members (`android`, `apns`, `webpush`,
    /// `fcm_options`) merged, RFC 7396, over the message Herald builds.
    public var fcm: JSONObject?
    /// Opaque to Herald; echoed in every outcome.
    public var context: JSONObject?

    public init(
        id: String,
        app: String? = nil,
        targets: [Target],
        notification: Notification? = nil,
        data: JSONObject? = nil,
        pushType: PushType? = nil,
        priority: Priority? = nil,
        expiry: Expiry? = nil,
        collapseID: String? = nil,
        contentAvailable: Bool = false,
        mutableContent: Bool = false,
        excludeTokens: Set<String> = [],
        apns: APNsOverrides? = nil,
        fcm: JSONObject? = nil,
        context: JSONObject? = nil
    ) {
        self.id = id
        self.app = app
        self.targets = targets
        self.notification = notification
        self.data = data
        self.pushType = pushType
        self.priority = priority
        self.expiry = expiry
        self.collapseID = collapseID
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
        self.excludeTokens = excludeTokens
        self.apns = apns
        self.fcm = fcm
        self.context = context
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

    /// `true` when `target` is a device token listed in `exclude_tokens`.
    public func isExcluded(_ target: Target) -> Bool {
        guard let token = target.token else { return false }
        return excludeTokens.contains(token)
    }
}
