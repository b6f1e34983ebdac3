// Decoding `targets`, or the top-level shorthand `provider` + one address.
// An element of `targets` is a device (`provider` + one address — for Web
// Push the `subscription` with its endpoint and keys — with the
// `channel` it was reached through when a retry carries it, and for APNs the
// token's own `environment` and `apns_topic`) or a registry channel
// (`channel`, optionally `providers`).
//
// Problems with the list as a whole (missing, not an array, empty, too long,
// mixed with the shorthand) refuse the event. A problem inside one target
// makes only that target an `InvalidTarget`: the others are still delivered.

extension Event {
    /// How an event gives a target's address: a Web Push target's endpoint
    /// comes inside its `subscription`, with the keys.
    static let addressFieldNames = Target.Address.fieldNames.filter { $0 != "endpoint" } + [WebPushKeys.subscriptionField]
    static let targetFieldNames = ["provider"] + addressFieldNames
    /// The fields of a device element of `targets`.
    static let deviceTargetFieldNames = targetFieldNames + ["channel", APNsDeviceOverrides.environmentField, APNsDeviceOverrides.topicField]
    /// The fields of a channel element of `targets`.
    static let channelTargetFieldNames = ["channel", "providers"]

    /// The longest device token or FID accepted, in bytes: APNs tokens are 32
    /// bytes (64 hex digits) today and Apple says they may grow; FCM
    /// registration tokens are about 160 characters, FIDs 22.
    public static let maxTokenBytes = 4096

    static func decodeTargets(
        _ fields: FieldReader, limits: EventLimits
    ) throws(EventError) -> (targets: [Target], channels: [ChannelTarget], invalid: [InvalidTarget]) {
        let shorthand = targetFieldNames.filter { fields.value($0) != nil }
        guard let value = fields.value("targets") else {
            guard !shorthand.isEmpty else {
                throw EventError(field: "targets", message: "missing; give \"targets\" or the shorthand \"provider\" + \"token\"")
            }
            let (targets, invalid) = split(decodeTarget(fields, index: 0, name: "event"))
            return (targets, [], invalid)
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
        var channels: [ChannelTarget] = []
        var invalid: [InvalidTarget] = []
        for (index, element) in elements.enumerated() {
            let path = "targets[\(index)]"
            guard case .object(let object) = element else {
                invalid.append(InvalidTarget(index: index, provider: nil, address: nil,
                                             error: .mismatch(path, expected: "an object", found: element), verdict: .failed))
                continue
            }
            let targetFields = FieldReader(object: object, path: path)
            if object["channel"] != nil, object["provider"] == nil {
                do throws(EventError) {
                    try targetFields.rejectUnknownKeys(allowed: channelTargetFieldNames)
                    channels.append(try decodeChannelTarget(targetFields))
                } catch {
                    invalid.append(invalidTarget(targetFields, index: index, error: error, verdict: .failed))
                }
                continue
            }
            let decoded: DecodedTarget
            do throws(EventError) {
                try targetFields.rejectUnknownKeys(allowed: deviceTargetFieldNames)
                decoded = try decodeTarget(targetFields, index: index, name: path).reachedThrough(decodeChannelName(targetFields))
                    .with(decodeAPNsDevice(targetFields))
            } catch {
                decoded = .invalid(invalidTarget(targetFields, index: index, error: error, verdict: .failed))
            }
            switch decoded {
            case .valid(let target): targets.append(target)
            case .invalid(let problem): invalid.append(problem)
            }
        }
        return (targets, channels, invalid)
    }

    /// `{"channel": "user:42", "providers": ["apns"]}`.
    private static func decodeChannelTarget(_ fields: FieldReader) throws(EventError) -> ChannelTarget {
        guard let channel = try decodeChannelName(fields) else {
            throw EventError(field: fields.path("channel"), message: "missing")
        }
        guard let value = fields.value("providers") else { return ChannelTarget(channel: channel) }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw .mismatch(fields.path("providers"), expected: "a non-empty array of provider names (\(acceptedProviders))", found: value)
        }
        var providers = Set<Provider>()
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element, let provider = Provider(eventName: name) else {
                throw .mismatch(fields.path("providers") + "[\(index)]", expected: "a provider name (\(acceptedProviders))", found: element)
            }
            providers.insert(provider)
        }
        return ChannelTarget(channel: channel, providers: providers)
    }

    /// The element's `channel`, checked as a channel name; nil when absent.
    private static func decodeChannelName(_ fields: FieldReader) throws(EventError) -> String? {
        guard let channel = try fields.string("channel") else { return nil }
        if let problem = ChannelTarget.problem(withName: channel) {
            throw EventError(field: fields.path("channel"), message: problem)
        }
        return channel
    }

    /// An APNs device's `environment` and `apns_topic`; refused on another provider's target.
    private static func decodeAPNsDevice(_ fields: FieldReader) throws(EventError) -> APNsDeviceOverrides {
        var overrides = APNsDeviceOverrides()
        let environmentField = APNsDeviceOverrides.environmentField
        if let name = try fields.string(environmentField) {
            guard let environment = APNsEnvironment(rawValue: name) else {
                throw .mismatch(fields.path(environmentField), expected: APNsEnvironment.expected, found: .string(name))
            }
            overrides.environment = environment
        }
        let topicField = APNsDeviceOverrides.topicField
        if let topic = try fields.string(topicField) {
            if let problem = APNsDeviceOverrides.problem(withTopic: topic) {
                throw EventError(field: fields.path(topicField), message: problem)
            }
            overrides.topic = topic
        }
        if !overrides.isEmpty, let provider = fields.value("provider")?.stringValue.flatMap(Provider.init(eventName:)),
           provider != .apns {
            let field = overrides.environment != nil ? environmentField : topicField
            throw EventError(field: fields.path(field), message: "is for APNs targets only, not \(provider) targets")
        }
        return overrides
    }

    private static func split(_ decoded: DecodedTarget) -> (targets: [Target], invalid: [InvalidTarget]) {
        switch decoded {
        case .valid(let target): ([target], [])
        case .invalid(let problem): ([], [problem])
        }
    }

    /// One element of `targets`, decoded or refused.
    private enum DecodedTarget {
        case valid(Target)
        case invalid(InvalidTarget)

        /// The same, remembering the channel the device was reached through.
        func reachedThrough(_ channel: String?) -> DecodedTarget {
            guard let channel else { return self }
            switch self {
            case .valid(var target):
                target.channel = channel
                return .valid(target)
            case .invalid(var problem):
                problem.channel = channel
                return .invalid(problem)
            }
        }

        /// The same, with an APNs device's own environment and topic.
        func with(_ apns: APNsDeviceOverrides) -> DecodedTarget {
            guard !apns.isEmpty, case .valid(var target) = self else { return self }
            target.apns = apns
            return .valid(target)
        }
    }

    private static let acceptedProviders = EventError.list(Provider.acceptedNames)
    /// `"token", "fid", "topic", "condition" or "subscription"`, for a target without an address.
    private static let noAddress = EventError.list(addressFieldNames, quoted: true)

    /// One target from `provider` and exactly one of `token`, `fid`, `topic`,
    /// `condition`, `subscription`. `name` is how messages refer to the target as a whole.
    private static func decodeTarget(_ fields: FieldReader, index: Int, name: String) -> DecodedTarget {
        func failed(_ error: EventError) -> DecodedTarget {
            .invalid(invalidTarget(fields, index: index, error: error, verdict: .failed))
        }
        func badToken(_ error: EventError) -> DecodedTarget {
            .invalid(invalidTarget(fields, index: index, error: error, verdict: .invalidToken))
        }
        let provider: Provider
        do throws(EventError) {
            guard let named = try fields.provider("provider") else {
                return failed(EventError(field: fields.path("provider"), message: "missing; expected \(acceptedProviders)"))
            }
            provider = named
        } catch {
            return failed(error)
        }

        let present = addressFieldNames.filter { fields.value($0) != nil }
        guard present.count <= 1 else {
            let quoted = present.map { JSONText.quoted($0) }
            let listed = present.count == 2 ? "both " + quoted.joined(separator: " and ")
                : quoted.dropLast().joined(separator: ", ") + " and " + (quoted.last ?? "")
            return failed(EventError(field: name, message: "has \(listed); give exactly one"))
        }
        guard let kind = present.first else {
            return failed(EventError(field: name, message: "has none of \(noAddress); give exactly one"))
        }
        guard provider != .webpush || kind == WebPushKeys.subscriptionField else {
            return failed(EventError(field: fields.path(kind),
                                     message: "Web Push has no \(kind)s; a Web Push target needs the browser's \"subscription\" (endpoint and keys)"))
        }
        if kind == WebPushKeys.subscriptionField {
            guard provider == .webpush else {
                return failed(EventError(field: fields.path(kind), message: "is for Web Push targets only, not \(provider) targets"))
            }
            do throws(EventError) {
                let (endpoint, keys) = try decodeSubscription(fields)
                return .valid(Target(provider: .webpush, address: .endpoint(endpoint), webPushKeys: keys))
            } catch {
                return failed(error)
            }
        }
        guard case .string(let address)? = fields.value(kind) else {
            return failed(.mismatch(fields.path(kind), expected: "a non-empty string", found: fields.value(kind) ?? .null))
        }
        if Target.Address.isDeviceField(kind) {
            guard !address.isEmpty else {
                let device = kind == "token" ? "a device token" : "a Firebase installation ID"
                return badToken(EventError(field: fields.path(kind), message: "is empty; \(device) cannot be empty"))
            }
            guard address.utf8.count <= maxTokenBytes else {
                return badToken(EventError(
                    field: fields.path(kind), message: "is \(address.utf8.count) bytes, over the limit of \(maxTokenBytes)"))
            }
        } else if address.isEmpty {
            return failed(.mismatch(fields.path(kind), expected: "a non-empty string", found: .string(address)))
        }

        switch (provider, kind) {
        case (.apns, "token"):
            guard isHex(address) else {
                return badToken(.mismatch(fields.path(kind), expected: "a hexadecimal APNs device token", found: .string(address)))
            }
            return .valid(Target(provider: .apns, address: .token(address)))
        case (.apns, _):
            return failed(EventError(field: fields.path(kind), message: "APNs has no \(kind)s; an APNs target needs a device \"token\""))
        case (.fcm, "topic"):
            if address.hasPrefix("/topics/") {
                return failed(EventError(field: fields.path(kind), message: "give the topic name without the \"/topics/\" prefix"))
            }
            guard isFCMTopicName(address) else {
                return failed(.mismatch(
                    fields.path(kind), expected: "an FCM topic name (letters, digits, '-', '_', '.', '~', '%')", found: .string(address)))
            }
            return .valid(Target(provider: .fcm, address: .topic(address)))
        case (.fcm, "condition"):
            return .valid(Target(provider: .fcm, address: .condition(address)))
        case (.fcm, "fid"):
            // The alphabet only: the length is left to FCM (docs/fcm.md, "FID targets").
            guard Base64URL.isUnpadded(address) else {
                return badToken(.mismatch(
                    fields.path(kind), expected: "a Firebase installation ID (URL-safe base64: letters, digits, '-', '_')",
                    found: .string(address)))
            }
            return .valid(Target(provider: .fcm, address: .fid(address)))
        case (.webpush, _):  // decoded above, from "subscription"
            return failed(EventError(field: fields.path(kind), message: "a Web Push target needs its \"subscription\""))
        case (.fcm, _):  // "token": every provider is named above, so a new one does not compile until it is decoded
            guard address.everyByte({ $0 > 0x20 && $0 < 0x7F }) else {
                return badToken(.mismatch(
                    fields.path(kind), expected: "an FCM registration token (printable ASCII, no spaces)", found: .string(address)))
            }
            return .valid(Target(provider: .fcm, address: .token(address)))
        }
    }

    /// `subscription`: `{"endpoint": "https://…", "keys": {"p256dh": …, "auth": …}}`,
    /// as a browser's `PushSubscription.toJSON()` writes it (other members,
    /// such as `expirationTime`, are ignored). The keys' shape is checked
    /// here; that `p256dh` is a point on the curve, by the Web Push provider.
    private static func decodeSubscription(_ fields: FieldReader) throws(EventError) -> (endpoint: String, keys: WebPushKeys) {
        let field = WebPushKeys.subscriptionField
        guard let object = try fields.object(field) else {
            throw EventError(field: fields.path(field), message: "missing")
        }
        let subscription = FieldReader(object: object, path: fields.path(field))
        guard let endpoint = try subscription.string("endpoint", nonEmpty: true) else {
            throw EventError(field: subscription.path("endpoint"), message: "missing; the push service's URL for this browser")
        }
        guard endpoint.hasPrefix("https://"), endpoint.utf8.count <= maxTokenBytes, endpoint.everyByte({ $0 > 0x20 && $0 < 0x7F }) else {
            throw EventError(field: subscription.path("endpoint"),
                             message: "expected an https:// URL of at most \(maxTokenBytes) bytes without spaces, found \(JSONText.quoted(endpoint.truncatedForMessage))")
        }
        guard let keysObject = try subscription.object("keys") else {
            throw EventError(field: subscription.path("keys"), message: "missing; give \"p256dh\" and \"auth\"")
        }
        let keys = FieldReader(object: keysObject, path: subscription.path("keys"))
        func key(_ name: String, bytes: Int, what: String) throws(EventError) -> String {
            guard let value = try keys.string(name, nonEmpty: true) else {
                throw EventError(field: keys.path(name), message: "missing; \(what)")
            }
            guard let decoded = Base64URL.decode(value), decoded.count == bytes else {
                // The value is not repeated: `auth` is a secret.
                throw EventError(field: keys.path(name), message: "expected URL-safe base64 of \(bytes) bytes (\(what))")
            }
            return value
        }
        let p256dh = try key("p256dh", bytes: WebPushKeys.publicKeyBytes, what: "the browser's P-256 public key")
        let auth = try key("auth", bytes: WebPushKeys.authSecretBytes, what: "the subscription's authentication secret")
        return (endpoint, WebPushKeys(p256dh: p256dh, auth: auth))
    }

    /// A refused target, with whatever of it can be read: the provider it
    /// names and its address as given, so its outcome can echo them.
    private static func invalidTarget(
        _ fields: FieldReader, index: Int, error: EventError, verdict: InvalidTarget.Verdict
    ) -> InvalidTarget {
        let provider = fields.value("provider")?.stringValue.flatMap(Provider.init(eventName:))
        let subscription = fields.value(WebPushKeys.subscriptionField)?.objectValue
        let address = Target.Address.fieldNames.lazy.compactMap { field in
            fields.value(field)?.stringValue.flatMap { Target.Address(field: field, value: $0) }
        }.first ?? subscription?["endpoint"]?.stringValue.map { .endpoint($0) }
        return InvalidTarget(index: index, provider: provider, address: address, channel: fields.value("channel")?.stringValue,
                             error: error, verdict: verdict)
    }

    private static func isHex(_ text: String) -> Bool {
        !text.isEmpty && text.everyByte { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }
    }

    /// FCM's topic pattern, `[a-zA-Z0-9-_.~%]+`.
    private static func isFCMTopicName(_ text: String) -> Bool {
        !text.isEmpty && text.everyByte { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"): true
            default: false
            }
        }
    }
}

extension Event {
    /// The top-level fields of the shorthand target (`provider` and one address).
    public static var shorthandTargetFieldNames: [String] { targetFieldNames }
}

extension Target {
    /// The target as an element of an event's `targets`, which decodes back
    /// to it: its provider and address (a Web Push target's subscription with
    /// its keys), the channel it was reached through, and an APNs device's
    /// environment and topic.
    public var eventJSON: JSONValue {
        var members: [(String, JSONValue)] = [("provider", .string(provider.rawValue))]
        if let webPushKeys {
            members.append((WebPushKeys.subscriptionField, webPushKeys.subscriptionJSON(endpoint: address.value)))
        } else {
            members.append((address.field, .string(address.value)))
        }
        if let channel { members.append(("channel", .string(channel))) }
        if let environment = apns.environment { members.append((APNsDeviceOverrides.environmentField, .string(environment.rawValue))) }
        if let topic = apns.topic { members.append((APNsDeviceOverrides.topicField, .string(topic))) }
        return .object(JSONObject(members))
    }
}
