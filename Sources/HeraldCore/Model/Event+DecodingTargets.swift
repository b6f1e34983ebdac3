// Decoding `targets`, or the top-level shorthand `provider` + one address.
// An element of `targets` is a device (`provider` + one address — for Web
// Push the `subscription` with its endpoint and keys — with the
// `channel` it was reached through and the registered attributes (`device`)
// when a retry carries them, and the fields of
// its provider's extras, for APNs the token's own `environment` and
// `apns_topic`) or a registry channel
// (`channel`, optionally `providers`).
//
// Problems with the list as a whole (missing, not an array, empty, too long,
// mixed with the shorthand) refuse the event. A problem inside one target
// makes only that target an `InvalidTarget`: the others are still delivered.

extension Event {
    /// The fields a device element of `targets` may have beside `provider`, its address and its provider's extras.
    static let deviceTargetOnlyFieldNames = ["channel", "device"]
    /// The fields of a channel element of `targets`.
    static let channelTargetFieldNames = ["channel", "providers"]

    /// The longest device token or FID accepted, in bytes: APNs tokens are 32
    /// bytes (64 hex digits) today and Apple says they may grow; FCM
    /// registration tokens are about 160 characters, FIDs 22.
    public static let maxTokenBytes = 4096

    static func decodeTargets(
        _ fields: FieldReader, limits: EventLimits, providers: ProviderCatalog
    ) throws(EventError) -> (targets: [Target], channels: [ChannelTarget], invalid: [InvalidTarget]) {
        let shorthand = providers.targetFieldNames.filter { fields.value($0) != nil }
        guard let value = fields.value("targets") else {
            guard !shorthand.isEmpty else {
                throw EventError(
                    field: "targets", message: "missing; give \"targets\" or the shorthand \"provider\" + \"token\"")
            }
            let (targets, invalid) = split(decodeTarget(fields, index: 0, name: "event", providers: providers))
            return (targets, [], invalid)
        }
        if let first = shorthand.first {
            throw EventError(
                field: "targets",
                message:
                    "cannot be combined with the shorthand \(JSONText.quoted(first)); give either \"targets\" or \"provider\" + \"token\""
            )
        }
        guard case .array(let elements) = value else {
            throw .mismatch("targets", expected: "an array of targets", found: value)
        }
        guard !elements.isEmpty else {
            throw EventError(field: "targets", message: "is empty; give at least one target")
        }
        guard elements.count <= limits.maxTargets else {
            throw EventError(
                field: "targets", message: "has \(elements.count) targets, over the limit of \(limits.maxTargets)")
        }
        var targets: [Target] = []
        targets.reserveCapacity(elements.count)
        var channels: [ChannelTarget] = []
        var invalid: [InvalidTarget] = []
        for (index, element) in elements.enumerated() {
            let path = "targets[\(index)]"
            guard case .object(let object) = element else {
                invalid.append(
                    InvalidTarget(
                        index: index, provider: nil, address: nil,
                        error: .mismatch(path, expected: "an object", found: element), verdict: .failed))
                continue
            }
            let targetFields = FieldReader(object: object, path: path)
            if object["channel"] != nil, object["provider"] == nil {
                do throws(EventError) {
                    try targetFields.rejectUnknownKeys(allowed: channelTargetFieldNames)
                    channels.append(try decodeChannelTarget(targetFields, providers: providers))
                } catch {
                    invalid.append(
                        invalidTarget(targetFields, index: index, error: error, verdict: .failed, providers: providers))
                }
                continue
            }
            // The target (or its refusal) gets the channel it was reached through and, when
            // valid, the device's own values, set in place: one copy of it, into its list.
            do throws(EventError) {
                try targetFields.rejectUnknownKeys(allowed: providers.deviceTargetFieldNames)
                let decoded = decodeTarget(targetFields, index: index, name: path, providers: providers)
                let channel = try decodeChannelName(targetFields)
                let device = try decodeDeviceAttributes(targetFields)
                let extras = try decodeExtras(targetFields, providers: providers)
                switch decoded {
                case .valid(var target):
                    if let channel { target.channel = channel }
                    if let device { target.deviceAttributes = device }
                    if !extras.isEmpty { target.extras = extras }
                    targets.append(target)
                case .invalid(var problem):
                    if let channel { problem.channel = channel }
                    invalid.append(problem)
                }
            } catch {
                invalid.append(
                    invalidTarget(targetFields, index: index, error: error, verdict: .failed, providers: providers))
            }
        }
        return (targets, channels, invalid)
    }

    /// `{"channel": "user:42", "providers": ["apns"]}`.
    private static func decodeChannelTarget(_ fields: FieldReader, providers catalog: ProviderCatalog)
        throws(EventError) -> ChannelTarget
    {
        guard let channel = try decodeChannelName(fields) else {
            throw EventError(field: fields.path("channel"), message: "missing")
        }
        guard let value = fields.value("providers") else { return ChannelTarget(channel: channel) }
        let accepted = EventError.list(catalog.acceptedNames)
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw .mismatch(
                fields.path("providers"), expected: "a non-empty array of provider names (\(accepted))", found: value)
        }
        var providers = Set<Provider>()
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element, let provider = catalog.provider(named: name) else {
                throw .mismatch(
                    fields.path("providers") + "[\(index)]", expected: "a provider name (\(accepted))", found: element)
            }
            providers.insert(provider)
        }
        return ChannelTarget(channel: channel, providers: providers)
    }

    /// The element's `device`: the attributes a channel device registered
    /// with, which a retry carries so its outcome echoes them too; at most
    /// ``Target/maxDeviceAttributesBytes`` serialized, and only beside `channel`.
    private static func decodeDeviceAttributes(_ fields: FieldReader) throws(EventError) -> JSONObject? {
        guard let device = try fields.object("device") else { return nil }
        guard fields.value("channel") != nil else {
            throw EventError(
                field: fields.path("device"),
                message: "is the registered attributes of a device a channel reached; give it only with \"channel\"")
        }
        let size = device.serializedCount(excluding: [])
        guard size <= Target.maxDeviceAttributesBytes else {
            throw EventError(
                field: fields.path("device"),
                message: "is \(size) bytes serialized, over the limit of \(Target.maxDeviceAttributesBytes)")
        }
        return device
    }

    /// The element's `channel` as the channel it names (``ChannelName``: NFC, checked); nil when absent.
    private static func decodeChannelName(_ fields: FieldReader) throws(EventError) -> String? {
        guard let channel = try fields.string("channel") else { return nil }
        switch ChannelName.canonical(channel) {
        case .success(let name): return name
        case .failure(let problem): throw EventError(field: fields.path("channel"), message: problem.message)
        }
    }

    /// The device's own values in the element's extra fields (APNs'
    /// `environment` and `apns_topic`), read by the rules of the providers
    /// that declare them; refused on the target of a provider that does not.
    private static func decodeExtras(
        _ fields: FieldReader, providers: ProviderCatalog
    ) throws(EventError) -> ProviderExtras {
        guard providers.extraFieldNames.contains(where: { fields.value($0) != nil }) else { return ProviderExtras() }
        let owners = providers.rules.filter { $0.extraFields.contains { fields.value($0) != nil } }
        let provider = fields.value("provider")?.stringValue.flatMap(providers.provider(named:))
        var extras = ProviderExtras()
        for owner in owners {
            let decoded = try owner.decodeExtras(of: fields)
            if owner.provider == provider { extras = decoded }
        }
        if let provider, providers.rules(for: provider) != nil, !owners.contains(where: { $0.provider == provider }) {
            let field = owners.lazy.flatMap(\.extraFields).first { fields.value($0) != nil } ?? ""
            let names = owners.map(\.displayName).joined(separator: " and ")
            throw EventError(
                field: fields.path(field),
                message: "is for \(names) targets only, not \(provider) targets")
        }
        return extras
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
    }

    /// One target from `provider` and exactly one address field, read by the
    /// provider's rules. `name` is how messages refer to the target as a whole.
    private static func decodeTarget(_ fields: FieldReader, index: Int, name: String, providers: ProviderCatalog)
        -> DecodedTarget
    {
        func failed(_ error: EventError) -> DecodedTarget {
            .invalid(invalidTarget(fields, index: index, error: error, verdict: .failed, providers: providers))
        }
        let provider: Provider
        do throws(EventError) {
            guard let named = try fields.provider("provider", among: providers) else {
                return failed(
                    EventError(
                        field: fields.path("provider"),
                        message: "missing; expected \(EventError.list(providers.acceptedNames))"))
            }
            provider = named
        } catch {
            return failed(error)
        }
        guard let rules = providers.rules(for: provider) else {
            return failed(
                EventError(
                    field: fields.path("provider"), message: "unknown provider \(JSONText.quoted(provider.rawValue))"))
        }

        // The one address field given; the list of all is made only for the message when there are several.
        let first = providers.addressFields.firstIndex { fields.value($0) != nil }
        if let first,
            providers.addressFields[(first + 1)...].contains(where: { fields.value($0) != nil })
        {
            let present = providers.addressFields[first...].filter { fields.value($0) != nil }
            let quoted = present.map { JSONText.quoted($0) }
            let listed =
                present.count == 2
                ? "both " + quoted.joined(separator: " and ")
                : quoted.dropLast().joined(separator: ", ") + " and " + (quoted.last ?? "")
            return failed(EventError(field: name, message: "has \(listed); give exactly one"))
        }
        guard let first else {
            return failed(
                EventError(
                    field: name,
                    message: "has none of \(EventError.list(providers.addressFields, quoted: true)); give exactly one"))
        }
        let field = providers.addressFields[first]
        guard rules.addressFields.contains(field) else {
            // Another provider's only address field (a Web Push subscription) is that provider's alone.
            let owners = providers.rules.filter { $0.addressFields.contains(field) }
            if owners.count == 1, let owner = owners.first, owner.addressFields.count == 1 {
                return failed(
                    EventError(
                        field: fields.path(field),
                        message: "is for \(owner.displayName) targets only, not \(provider) targets"))
            }
            return failed(
                EventError(
                    field: fields.path(field),
                    message: "\(rules.displayName) has no \(field)s; \(rules.targetRule)"))
        }
        do throws(TargetProblem) {
            return .valid(try rules.decodeTarget(field: field, of: fields))
        } catch {
            return .invalid(
                invalidTarget(fields, index: index, error: error.error, verdict: error.verdict, providers: providers))
        }
    }

    /// A refused target, with whatever of it can be read: the provider it
    /// names and its address as given, so its outcome can echo them.
    private static func invalidTarget(
        _ fields: FieldReader, index: Int, error: EventError, verdict: InvalidTarget.Verdict, providers: ProviderCatalog
    ) -> InvalidTarget {
        let provider = fields.value("provider")?.stringValue.flatMap(providers.provider(named:))
        let named = provider.flatMap(providers.rules(for:)).map { [$0] } ?? []
        let address = (named + providers.rules).lazy.compactMap { $0.addressGiven(in: fields) }.first
        return InvalidTarget(
            index: index, provider: provider, address: address, channel: fields.value("channel")?.stringValue,
            error: error, verdict: verdict)
    }
}

extension Target {
    /// The target as an element of an event's `targets`, which decodes back
    /// to it: its provider and address as its provider's rules write them (a
    /// Web Push target's subscription with its keys), the channel it was
    /// reached through, and the device's extras (an APNs device's own
    /// environment and topic).
    public func eventJSON(providers: ProviderCatalog) -> JSONValue {
        var members =
            providers.rules(for: provider)?.eventMembers(of: self)
            ?? [("provider", .string(provider.rawValue)), (address.field, .string(address.value))]
        if let channel { members.append(("channel", .string(channel))) }
        if let deviceAttributes { members.append(("device", .object(deviceAttributes))) }
        if !extras.isEmpty, let rules = providers.rules(for: provider) { members += rules.extrasMembers(of: self) }
        return .object(JSONObject(members))
    }
}
