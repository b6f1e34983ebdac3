import HeraldCore

/// A complete APNs request body: `aps` plus the app's custom keys beside it,
/// plus a raw merge-patch applied last (the event's `apns.payload`).
public struct APNsPayload: Sendable, Hashable {
    public var aps: APNsAps
    /// Custom keys at the top level, beside `aps` (the event's `data`). A key named `aps` is ignored.
    public var custom: JSONObject
    /// RFC 7396 merge-patch over the built payload: the escape hatch to any APNs feature.
    public var rawPatch: JSONObject?

    public init(aps: APNsAps = APNsAps(), custom: JSONObject = JSONObject(), rawPatch: JSONObject? = nil) {
        self.aps = aps
        self.custom = custom
        self.rawPatch = rawPatch
    }

    /// The JSON object sent: `aps` first, then custom keys, then the raw patch merged over both.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        object["aps"] = .object(aps.jsonObject)
        for (key, value) in custom where key != "aps" { object[key] = value }
        if let rawPatch { object.merge(rawPatch) }
        return object
    }

    /// The body bytes (compact JSON).
    public var encoded: [UInt8] { JSONValue.object(jsonObject).serialized }
}
