// Decoding `targets`, or the top-level shorthand `provider` + `token`.

extension Event {
    static let targetFieldNames = ["provider", "token", "topic", "condition"]
    private static let addressFieldNames = ["token", "topic", "condition"]

    static func decodeTargets(_ fields: FieldReader, limits: EventLimits) throws(EventError) -> [Target] {
        let shorthand = targetFieldNames.filter { fields.value($0) != nil }
        guard let value = fields.value("targets") else {
            guard !shorthand.isEmpty else {
                throw EventError(field: "targets", message: "missing; give \"targets\" or the shorthand \"provider\" + \"token\"")
            }
            return [try decodeTarget(fields, name: "event")]
        }
        if let first = shorthand.first {
            throw EventError(
                field: "targets",
                message: "cannot be combined with the shorthand \(JSONText.quoted(first)); give either \"targets\" or \"provider\" + \"token\""
            )
        }
        guard case .array(let elements) = value else {
            throw .mismatch("targets", expected: "an array of targets", found: value)
        }
        guard !elements.isEmpty else {
            throw EventError(field: "targets", message: "is empty; give at least one target")
        }
        guard elements.count <= limits.maxTargets else {
            throw EventError(field: "targets", message: "has \(elements.count) targets, over the limit of \(limits.maxTargets)")
        }
        var targets: [Target] = []
        targets.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let path = "targets[\(index)]"
            guard case .object(let object) = element else {
                throw .mismatch(path, expected: "an object", found: element)
            }
            let targetFields = FieldReader(object: object, path: path)
            try targetFields.rejectUnknownKeys(allowed: targetFieldNames)
            targets.append(try decodeTarget(targetFields, name: path))
        }
        return targets
    }

    private static let acceptedProviders = EventError.list(Provider.acceptedNames)

    /// One target from `provider` and exactly one of `token`, `topic`,
    /// `condition`. `name` is how messages refer to the target as a whole.
    private static func decodeTarget(_ fields: FieldReader, name: String) throws(EventError) -> Target {
        // Built per target only for an error message: a static, computed once.
        let accepted = acceptedProviders
        guard let providerValue = fields.value("provider") else {
            throw EventError(field: fields.path("provider"), message: "missing; expected \(accepted)")
        }
        guard case .string(let providerName) = providerValue else {
            throw .mismatch(fields.path("provider"), expected: "a provider name (\(accepted))", found: providerValue)
        }
        guard let provider = Provider(eventName: providerName) else {
            let hint = Suggestions.closest(to: providerName, among: Provider.acceptedNames)
                .map { "; did you mean \(JSONText.quoted($0))?" } ?? ""
            throw EventError(
                field: fields.path("provider"),
                message: "unknown provider \(JSONText.quoted(providerName)) (expected \(accepted)\(hint))"
            )
        }

        let present = addressFieldNames.filter { fields.value($0) != nil }
        guard present.count <= 1 else {
            let listed = present.count == 2 ? "both " + present.map { "\"\($0)\"" }.joined(separator: " and ")
                : "\"token\", \"topic\" and \"condition\""
            throw EventError(field: name, message: "has \(listed); give exactly one")
        }
        guard let kind = present.first, let address = try fields.string(kind, nonEmpty: true) else {
            throw EventError(field: name, message: "has none of \"token\", \"topic\" or \"condition\"; give exactly one")
        }

        switch (provider, kind) {
        case (.apns, "token"):
            guard isHex(address) else {
                throw .mismatch(fields.path(kind), expected: "a hexadecimal APNs device token", found: .string(address))
            }
            return Target(provider: .apns, address: .token(address))
        case (.apns, _):
            throw EventError(field: fields.path(kind), message: "APNs has no \(kind)s; an APNs target needs a device \"token\"")
        case (.fcm, "topic"):
            if address.hasPrefix("/topics/") {
                throw EventError(field: fields.path(kind), message: "give the topic name without the \"/topics/\" prefix")
            }
            guard isFCMTopicName(address) else {
                throw .mismatch(fields.path(kind), expected: "an FCM topic name (letters, digits, '-', '_', '.', '~', '%')", found: .string(address))
            }
            return Target(provider: .fcm, address: .topic(address))
        case (.fcm, "condition"):
            return Target(provider: .fcm, address: .condition(address))
        default:
            return Target(provider: .fcm, address: .token(address))
        }
    }

    private static func isHex(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }
    }

    /// FCM's topic pattern, `[a-zA-Z0-9-_.~%]+`.
    private static func isFCMTopicName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"): true
            default: false
            }
        }
    }
}
