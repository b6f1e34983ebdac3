import HeraldCore

/// The checks every store runs on its arguments before touching the
/// database, with the messages ``RegistryError/Kind/invalidInput`` carries.
struct RegistryValidation: Sendable {

    let limits: RegistryLimits
    /// The providers' own rules for their devices.
    let providers: ProviderCatalog
    /// What a device's `timezone` is checked against.
    var timeZones = TimeZoneDatabase.system

    func app(_ app: String, _ operation: String) throws(RegistryError) {
        try name(app, what: "app", maxBytes: limits.maxNameBytes, operation)
    }

    /// A channel name as stored: ``ChannelName``'s rule (NFC, no control or
    /// format characters), within ``RegistryLimits/maxChannelBytes``.
    func channel(_ channel: String, _ operation: String) throws(RegistryError) {
        if let problem = ChannelName.problem(with: channel) { throw invalid("channel \(problem.message)", operation) }
        guard channel.utf8.count <= limits.maxChannelBytes else {
            throw invalid(
                "channel \"\(channel.truncatedForMessage)\" is \(channel.utf8.count) bytes, over the limit of \(limits.maxChannelBytes)",
                operation)
        }
    }

    /// The channels of one call: at least one, each valid, at most a device's worth.
    func channels(_ channels: [String], _ operation: String) throws(RegistryError) {
        guard !channels.isEmpty else { throw invalid("no channels given; give at least one", operation) }
        for channel in channels { try self.channel(channel, operation) }
        let distinct = Set(channels.map { Array($0.utf8) }).count
        guard distinct <= limits.maxChannelsPerDevice else {
            throw RegistryError(
                .limitExceeded, operation: operation,
                message:
                    "\(distinct) channels given; a device may be on at most \(limits.maxChannelsPerDevice) (RegistryLimits.maxChannelsPerDevice)"
            )
        }
    }

    /// A device address: a token, or a FID on FCM; never a topic or condition.
    func device(_ device: DeviceKey, _ operation: String) throws(RegistryError) {
        try app(device.app, operation)
        try address(device.address, provider: device.provider, operation)
    }

    func address(_ address: Target.Address, provider: Provider, _ operation: String) throws(RegistryError) {
        let held = providers.registrableProviders
        guard let rules = providers.rules(for: provider), held.contains(provider) else {
            let names = held.compactMap { providers.rules(for: $0)?.displayName }
            throw invalid(
                "the registry holds \(names.joined(separator: ", ")) devices, not \(provider) ones",
                operation)
        }
        if let problem = rules.registrationProblem(kind: address.kind) { throw invalid(problem, operation) }
        let value = address.value
        guard !value.isEmpty else { throw invalid("the device \(address.field) is empty", operation) }
        guard value.utf8.count <= Event.maxTokenBytes else {
            throw invalid(
                "the device \(address.field) is \(value.utf8.count) bytes, over the limit of \(Event.maxTokenBytes)",
                operation)
        }
        guard value.everyByte({ $0 > 0x20 && $0 < 0x7F }) else {
            throw invalid("the device \(address.field) has a character other than printable ASCII", operation)
        }
        if let problem = rules.registrationProblem(address) { throw invalid(problem, operation) }
    }

    /// A device's own environment and topic: only for a provider whose
    /// registrations have them (APNs), checked by its rules.
    func overrides(environment: String?, topic: String?, provider: Provider, _ operation: String) throws(RegistryError)
    {
        let given = [("environment", environment), ("topic", topic)].compactMap { field, value in
            value.map { (field, $0) }
        }
        guard !given.isEmpty else { return }
        guard let rules = providers.rules(for: provider),
            given.allSatisfy({ rules.registrationFields.contains($0.0) })
        else {
            let owners = providers.rules.filter { !Set($0.registrationFields).isDisjoint(with: given.map(\.0)) }
                .map(\.displayName)
            throw invalid(
                "environment and topic override \(owners.joined(separator: " and ")) settings; "
                    + "an \(provider) device has neither", operation)
        }
        for (field, value) in given {
            if let problem = rules.registrationProblem(field: field, value: value) { throw invalid(problem, operation) }
        }
    }

    /// A register's time zone, locale and attributes, each checked when
    /// given (``timezone(_:_:)``, ``locale(_:_:)``, ``attributes(_:_:)``);
    /// `""` clears a time zone or locale, so it is not checked.
    func profile(_ profile: DeviceProfile, _ operation: String) throws(RegistryError) {
        if let timezone = profile.timezone, !timezone.isEmpty { try self.timezone(timezone, operation) }
        if let locale = profile.locale, !locale.isEmpty { try self.locale(locale, operation) }
        if let attributes = profile.attributes { try self.attributes(attributes, operation) }
    }

    /// An IANA time zone name the system's tz database has (``TimeZoneDatabase``).
    func timezone(_ name: String, _ operation: String) throws(RegistryError) {
        if let problem = timeZones.problem(with: name, maxBytes: limits.maxTimezoneBytes) {
            throw invalid(problem, operation)
        }
    }

    /// A well-formed BCP 47 language tag (``LanguageTag``), within ``RegistryLimits/maxLocaleBytes``.
    func locale(_ tag: String, _ operation: String) throws(RegistryError) {
        guard tag.utf8.count <= limits.maxLocaleBytes else {
            throw invalid("locale is \(tag.utf8.count) bytes, over the limit of \(limits.maxLocaleBytes)", operation)
        }
        if let problem = LanguageTag.problem(with: tag) {
            throw invalid(
                "locale \(JSONText.quoted(tag, limit: 40)) is not a BCP 47 language tag: \(problem)", operation)
        }
    }

    /// A device's attribute map within the bounds of ``RegistryLimits``:
    /// at most `maxAttributes` keys, each 1-`maxAttributeKeyBytes` bytes of
    /// `A-Z a-z 0-9 _ . -`, each value at most `maxAttributeValueBytes` bytes
    /// without control characters.
    func attributes(_ attributes: [String: String], _ operation: String) throws(RegistryError) {
        guard attributes.count <= limits.maxAttributes else {
            throw RegistryError(
                .limitExceeded, operation: operation,
                message:
                    "attributes has \(attributes.count) keys, over the limit of \(limits.maxAttributes) (RegistryLimits.maxAttributes)"
            )
        }
        for (key, value) in attributes.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            guard !key.isEmpty, key.utf8.count <= limits.maxAttributeKeyBytes,
                key.utf8.allSatisfy(Self.isAttributeKeyByte)
            else {
                throw invalid(
                    "attribute key \(JSONText.quoted(key, limit: 40)) is not 1 to \(limits.maxAttributeKeyBytes) bytes "
                        + "of A-Z, a-z, 0-9, \"_\", \".\" and \"-\"", operation)
            }
            guard value.utf8.count <= limits.maxAttributeValueBytes else {
                throw invalid(
                    "attribute \(JSONText.quoted(key)) is \(value.utf8.count) bytes, over the limit of \(limits.maxAttributeValueBytes)",
                    operation)
            }
            if let index = value.unicodeScalars.firstIndex(where: { $0.properties.generalCategory == .control }) {
                let offset = value.utf8.distance(from: value.utf8.startIndex, to: index)
                throw invalid(
                    "attribute \(JSONText.quoted(key)) has a control character at byte \(offset); control characters are not allowed",
                    operation)
            }
        }
    }

    private static func isAttributeKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    func pageSize(_ limit: Int, _ operation: String) throws(RegistryError) {
        guard (1...limits.maxPageSize).contains(limit) else {
            throw invalid(
                "page size \(limit) is out of range (1-\(limits.maxPageSize), RegistryLimits.maxPageSize)", operation)
        }
    }

    /// An event id for the duplicate window: not empty and without NUL
    /// (PostgreSQL text cannot hold it). Its length is the event's limit.
    func eventKey(_ key: EventKey, _ operation: String) throws(RegistryError) {
        guard !key.id.isEmpty else { throw invalid("event id is empty", operation) }
        guard !key.id.utf8.contains(0) else {
            throw invalid("event id has a NUL character, which the database cannot store", operation)
        }
        guard !key.app.utf8.contains(0) else {
            throw invalid("event app has a NUL character, which the database cannot store", operation)
        }
    }

    /// 1 to `maxBytes` bytes of UTF-8 without control characters (C0, DEL, C1).
    private func name(_ text: String, what: String, maxBytes: Int, _ operation: String) throws(RegistryError) {
        guard !text.isEmpty else { throw invalid("\(what) is empty", operation) }
        guard text.utf8.count <= maxBytes else {
            throw invalid(
                "\(what) \"\(text.truncatedForMessage)\" is \(text.utf8.count) bytes, over the limit of \(maxBytes)",
                operation)
        }
        // Not quoted: the text would carry the control character into logs.
        if let index = text.unicodeScalars.firstIndex(where: { $0.properties.generalCategory == .control }) {
            let code = String(text.unicodeScalars[index].value, radix: 16, uppercase: true)
            let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
            let offset = text.utf8.distance(from: text.utf8.startIndex, to: index)
            throw invalid(
                "\(what) has a control character (U+\(padded)) at byte \(offset); control characters are not allowed",
                operation)
        }
    }

    private func invalid(_ message: String, _ operation: String) -> RegistryError {
        RegistryError(.invalidInput, operation: operation, message: message)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
