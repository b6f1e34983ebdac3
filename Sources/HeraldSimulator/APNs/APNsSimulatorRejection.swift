import HeraldCore

/// An error answer the APNs simulator gives, shaped like Apple's:
/// status, `reason`, and for 410 the `timestamp` in milliseconds.
///
/// The simulator keeps its own list of Apple's reasons (it does not share
/// Herald's provider table), so a mistake in one is caught by the other.
public struct APNsSimulatorRejection: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var timestamp: Timestamp?

    public init(_ status: Int, _ reason: String, timestamp: Timestamp? = nil) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
    }

    /// `{"reason":"...","timestamp":<ms>}`.
    public var body: [UInt8] {
        var object = JSONObject()
        object["reason"] = .string(reason)
        if let timestamp { object["timestamp"] = .number(JSONNumber(Int(timestamp.millisecondsSinceEpoch))) }
        return JSONValue.object(object).serialized
    }

    /// The `reason` of an error body in this shape, if it has one.
    static func reason(in body: [UInt8]) -> String? {
        (try? JSONValue.parse(body))?["reason"]?.stringValue
    }

    static func badRequest(_ reason: String) -> Self { Self(400, reason) }
    static func forbidden(_ reason: String) -> Self { Self(403, reason) }
}
