import HeraldCore

/// The `aps` members of a Live Activity push (push type `liveactivity`).
///
/// - Important: Apple requires `timestamp` (seconds; older updates are
///   ignored) and `event`; `content-state` must match the app's
///   `ContentState` type; a `start` event also needs `attributes-type` and
///   `attributes`.
public struct APNsLiveActivity: Sendable, Hashable {
    /// `aps.event`.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        case start
        case update
        case end
    }

    public var event: Event
    /// UNIX seconds of this update (`aps.timestamp`).
    public var timestamp: Int64
    public var contentState: JSONObject?
    /// When an ended activity leaves the Lock Screen (UNIX seconds).
    public var dismissalDate: Int64?
    /// When the activity's content becomes outdated (UNIX seconds).
    public var staleDate: Int64?
    public var attributesType: String?
    public var attributes: JSONObject?

    public init(
        event: Event, timestamp: Int64, contentState: JSONObject? = nil, dismissalDate: Int64? = nil,
        staleDate: Int64? = nil, attributesType: String? = nil, attributes: JSONObject? = nil
    ) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.dismissalDate = dismissalDate
        self.staleDate = staleDate
        self.attributesType = attributesType
        self.attributes = attributes
    }

    /// Writes the members into `aps`.
    func write(into aps: inout JSONObject) {
        aps["timestamp"] = .number(JSONNumber(Int(timestamp)))
        aps["event"] = .string(event.rawValue)
        if let contentState { aps["content-state"] = .object(contentState) }
        if let dismissalDate { aps["dismissal-date"] = .number(JSONNumber(Int(dismissalDate))) }
        if let staleDate { aps["stale-date"] = .number(JSONNumber(Int(staleDate))) }
        if let attributesType { aps["attributes-type"] = .string(attributesType) }
        if let attributes { aps["attributes"] = .object(attributes) }
    }
}
