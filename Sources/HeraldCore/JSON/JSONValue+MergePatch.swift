// RFC 7396 JSON Merge Patch: how an event's raw `apns` / `fcm` objects are
// laid over the payload Herald builds.

extension JSONValue {
    /// Applies `patch` per RFC 7396: an object patch merges member by member
    /// (recursively; a `null` member deletes the key; a non-object target is
    /// first replaced by `{}`), any other patch replaces the value outright.
    ///
    /// Works in place: merging into a large payload copies nothing it keeps.
    public mutating func merge(_ patch: JSONValue) {
        guard case .object(let patchMembers) = patch else {
            self = patch
            return
        }
        var target: JSONObject
        if case .object(let existing) = self {
            target = existing
        } else {
            target = JSONObject()
        }
        self = .null  // drop our reference so `target` is uniquely owned
        target.merge(patchMembers)
        self = .object(target)
    }
}

extension JSONObject {
    /// Applies the members of an RFC 7396 object patch to this object.
    public mutating func merge(_ patch: JSONObject) {
        for (key, value) in patch {
            if value.isNull {
                removeValue(forKey: key)
            } else if let position = position(of: key) {
                modifyValue(at: position) { $0.merge(value) }
            } else {
                var added = JSONValue.null
                added.merge(value)  // strips nulls from a nested object patch
                appendNew(key, added)
            }
        }
    }
}
