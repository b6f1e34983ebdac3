import HeraldCore

/// The `aps.alert` dictionary: the text the user sees, literal or localized.
///
/// Always sent in dictionary form (never the bare-string shorthand) so the
/// payload's shape does not depend on which fields happen to be set.
public struct APNsAlert: Sendable, Hashable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var launchImage: String?
    public var titleLocKey: String?
    public var titleLocArgs: [String]?
    public var subtitleLocKey: String?
    public var subtitleLocArgs: [String]?
    /// The body's localization key (`loc-key`).
    public var locKey: String?
    public var locArgs: [String]?

    public init(
        title: String? = nil, subtitle: String? = nil, body: String? = nil, launchImage: String? = nil,
        titleLocKey: String? = nil, titleLocArgs: [String]? = nil, subtitleLocKey: String? = nil,
        subtitleLocArgs: [String]? = nil, locKey: String? = nil, locArgs: [String]? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.launchImage = launchImage
        self.titleLocKey = titleLocKey
        self.titleLocArgs = titleLocArgs
        self.subtitleLocKey = subtitleLocKey
        self.subtitleLocArgs = subtitleLocArgs
        self.locKey = locKey
        self.locArgs = locArgs
    }

    /// `true` when no field is set (the builder then sends no `alert` at all).
    public var isEmpty: Bool { jsonObject.isEmpty }

    /// The dictionary, keys in Apple's documented order.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        func put(_ key: String, _ value: String?) { if let value { object[key] = .string(value) } }
        func put(_ key: String, _ values: [String]?) {
            if let values { object[key] = .array(values.map(JSONValue.string)) }
        }
        put("title", title)
        put("subtitle", subtitle)
        put("body", body)
        put("launch-image", launchImage)
        put("title-loc-key", titleLocKey)
        put("title-loc-args", titleLocArgs)
        put("subtitle-loc-key", subtitleLocKey)
        put("subtitle-loc-args", subtitleLocArgs)
        put("loc-key", locKey)
        put("loc-args", locArgs)
        return object
    }
}
