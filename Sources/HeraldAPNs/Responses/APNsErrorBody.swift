import HeraldCore

/// The JSON body of an APNs error: `{"reason": "...", "timestamp": <ms>}`.
///
/// - Important: the 410 `timestamp` is **milliseconds** since the epoch: the
///   last time APNs confirmed the token was no longer valid for the topic.
public struct APNsErrorBody: Sendable, Hashable {
    public var reason: APNsReason
    public var timestamp: Timestamp?

    public init(reason: APNsReason, timestamp: Timestamp? = nil) {
        self.reason = reason
        self.timestamp = timestamp
    }

    /// Parses an error body; nil when it is not a JSON object with a string `reason`.
    public init?(parsing body: [UInt8]) {
        guard let object = (try? JSONValue.parse(body))?.objectValue, let reason = object["reason"]?.stringValue else {
            return nil
        }
        self.reason = APNsReason(rawValue: reason)
        timestamp = object["timestamp"]?.intValue.flatMap(Self.invalidationTime)
    }

    /// The milliseconds APNs may send in `timestamp`: from the epoch to the
    /// end of year 9999 (what RFC 3339 can write).
    public static let timestampRange: ClosedRange<Int> = 0...253_402_300_799_999

    /// The time a `timestamp` of `milliseconds` means; nil (no time, the
    /// answer stands) for a number outside `timestampRange`: negative, huge,
    /// or not an integer (those never reach here as an `Int`).
    static func invalidationTime(_ milliseconds: Int) -> Timestamp? {
        guard timestampRange.contains(milliseconds) else { return nil }
        return Timestamp(millisecondsSinceEpoch: Int64(milliseconds))
    }

    /// The body APNs would send (the simulator answers with it).
    public var encoded: [UInt8] {
        var object = JSONObject()
        object["reason"] = .string(reason.rawValue)
        if let timestamp { object["timestamp"] = .number(JSONNumber(Int(timestamp.millisecondsSinceEpoch))) }
        return JSONValue.object(object).serialized
    }
}
