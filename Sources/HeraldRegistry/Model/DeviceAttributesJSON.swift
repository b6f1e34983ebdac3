import HeraldCore

/// A device's time zone, locale and attributes as JSON, one form wherever
/// they are shown: an outcome's `device` (when the event has
/// `include_device_attributes`) and `herald registry stale --json`.
/// `{"timezone": …, "locale": …, "attributes": {…}}`, absent ones left out,
/// attribute keys in byte order; `{}` for a device without any.
public enum DeviceAttributesJSON {
    public static func object(timezone: String?, locale: String?, attributes: [String: String]) -> JSONObject {
        var object = JSONObject()
        if let timezone { object["timezone"] = .string(timezone) }
        if let locale { object["locale"] = .string(locale) }
        if !attributes.isEmpty {
            object["attributes"] = .object(
                JSONObject(
                    attributes.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
                        ($0.key, JSONValue.string($0.value))
                    }))
        }
        return object
    }
}

extension Registration {
    /// The device's attributes as ``DeviceAttributesJSON`` writes them.
    public var attributesObject: JSONObject {
        DeviceAttributesJSON.object(timezone: timezone, locale: locale, attributes: attributes)
    }
}

extension RegisteredDevice {
    /// The device's attributes as ``DeviceAttributesJSON`` writes them.
    public var attributesObject: JSONObject {
        DeviceAttributesJSON.object(timezone: timezone, locale: locale, attributes: attributes)
    }
}
