import HeraldCore

extension Registration {
    /// The device's time zone, locale and attributes as an outcome echoes
    /// them (`device`, when the event has `include_device_attributes`):
    /// `{"timezone": …, "locale": …, "attributes": {…}}`, absent ones left
    /// out, attribute keys in byte order; `{}` for a device without any.
    public var attributesObject: JSONObject {
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
