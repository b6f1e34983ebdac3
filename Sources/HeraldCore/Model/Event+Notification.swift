extension Event {
    /// The user-visible part of an event, in provider-neutral terms; the
    /// payload builders map it to APNs `aps.alert` and FCM `notification`.
    ///
    /// Unknown fields are an error rather than kept: a misspelt `tilte`
    /// would otherwise vanish silently, and provider-specific extras already
    /// have a home in the event's raw `apns.payload` and `fcm` objects.
    public struct Notification: Sendable, Hashable {
        public var title: String?
        public var subtitle: String?
        public var body: String?
        /// The app icon's badge number; 0 clears it.
        public var badge: Int?
        public var sound: Sound?
        /// An image URL (FCM `image`; for APNs a service extension fetches it).
        public var image: String?
        /// APNs `category` / FCM `click_action`: which actions to offer.
        public var category: String?
        /// Groups notifications (APNs `thread-id`, FCM `tag`).
        public var threadID: String?
        public var titleLocKey: String?
        public var titleLocArgs: [String]?
        /// Localized body key (APNs `loc-key`, FCM `body_loc_key`).
        public var locKey: String?
        public var locArgs: [String]?

        public init(
            title: String? = nil, subtitle: String? = nil, body: String? = nil, badge: Int? = nil,
            sound: Sound? = nil, image: String? = nil, category: String? = nil, threadID: String? = nil,
            titleLocKey: String? = nil, titleLocArgs: [String]? = nil, locKey: String? = nil, locArgs: [String]? = nil
        ) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.badge = badge
            self.sound = sound
            self.image = image
            self.category = category
            self.threadID = threadID
            self.titleLocKey = titleLocKey
            self.titleLocArgs = titleLocArgs
            self.locKey = locKey
            self.locArgs = locArgs
        }

        /// `true` when the notification alerts the user: any text, a sound or
        /// a badge. Decides between alert and background push types.
        public var isVisible: Bool {
            title != nil || subtitle != nil || body != nil || titleLocKey != nil || locKey != nil
                || sound != nil || badge != nil
        }
    }

    /// A notification sound: a named sound file (or `default`), optionally a
    /// critical alert with a volume (APNs' sound dictionary).
    ///
    /// - Important: critical alerts need Apple's critical-alert entitlement;
    ///   without it the device plays the sound as a normal one.
    public struct Sound: Sendable, Hashable {
        /// A sound file in the app bundle, or `default`.
        public var name: String
        /// Play even when the device is muted or in Focus.
        public var critical: Bool
        /// Critical-alert volume, 0.0 to 1.0.
        public var volume: Double?

        public init(name: String, critical: Bool = false, volume: Double? = nil) {
            self.name = name
            self.critical = critical
            self.volume = volume
        }

        /// `true` when APNs needs the dictionary form (critical or a volume)
        /// rather than a plain sound name.
        public var needsDictionary: Bool { critical || volume != nil }
    }
}
