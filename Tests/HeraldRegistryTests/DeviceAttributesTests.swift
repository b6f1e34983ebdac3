import HeraldCore
import HeraldProviders
import HeraldRegistry
import HeraldTestSupport
import Testing

/// A register's `timezone`, `locale` and `attributes`: checked (the system's
/// tz database, BCP 47 syntax, the map's bounds) with refusals naming the
/// field, kept once per device so every channel reads them, kept when a
/// register leaves them out, cleared by `""` and `{}`.
@Suite struct DeviceAttributesTests {
    static let rules = RegistryCommand.Rules(apps: ["chat": [.apns, .fcm]], providers: .registered)
    static let token = String(repeating: "a1", count: 32)

    /// A register of the APNs test device on `channels` with `fields` (JSON members) added.
    static func register(_ fields: String, channels: String = #"["user:42"]"#) throws(RegistryCommandError)
        -> RegistryCommand
    {
        let body =
            #"{"id": "r", "app": "chat", "provider": "apns", "token": "\#(token)", "channels": \#(channels)"#
            + (fields.isEmpty ? "" : ", " + fields) + "}"
        return try RegistryCommand.decode(Array(body.utf8), routingKey: "register", fallbackID: nil, rules: rules)
    }

    static func refusal(_ fields: String) -> String? {
        do {
            _ = try register(fields)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func anUnknownOrUnsafeTimeZoneIsRefusedNamingTheField() {
        let zones = TimeZoneDatabase.system.directory
        #expect(
            Self.refusal(#""timezone": "Mars/Olympus_Mons""#)
                == #"timezone: unknown time zone "Mars/Olympus_Mons" (not in the tz database at \#(zones))"#)
        for name in [
            "../../etc/passwd", "/etc/localtime", "Europe/../Europe/Paris", "Europe//Paris", "posix/Europe/Paris",
            "localtime", "posixrules",
            "Europe/Paris ", "zone.tab",
        ] {
            let refusal = Self.refusal(#""timezone": "\#(name)""#)
            #expect(refusal?.hasPrefix("timezone: ") == true, "\(name): \(refusal ?? "accepted")")
        }
        // A file of the directory that is no zone (not TZif) is not a time zone either.
        #expect(
            Self.refusal(#""timezone": "zone.tab""#)
                == #"timezone: unknown time zone "zone.tab" (not in the tz database at \#(zones))"#)
        #expect(
            Self.refusal(#""timezone": "../../etc/passwd""#)
                == #"timezone: "../../etc/passwd" is not an IANA time zone name (such as "Europe/Paris" or "America/Sao_Paulo")"#
        )
        #expect(Self.refusal(#""timezone": 1"#) == "timezone: expected a string, found 1")
        for name in ["Europe/Paris", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+5", "Asia/Kolkata"] {
            #expect(Self.refusal(#""timezone": "\#(name)""#) == nil, "\(name)")
        }
    }

    @Test func aMalformedLocaleIsRefusedNamingTheField() {
        for tag in [
            "en", "pt-BR", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1996", "sl-rozaj-biske", "en-US-u-ca-gregory",
            "en-a-bbb-x-a-ccc", "x-whatever", "i-klingon", "zh-min-nan", "EN-us", "qq-ZZ", "hy-Latn-IT-arevela",
        ] {
            #expect(Self.refusal(#""locale": "\#(tag)""#) == nil, "\(tag)")
        }
        let refused: [(String, String)] = [
            ("en_US", #"may hold only ASCII letters, digits and "-" (separate subtags with "-", as in "pt-BR")"#),
            ("e", #"must start with a language subtag of 2 to 8 letters ("en", "pt", "zh")"#),
            ("123", #"must start with a language subtag of 2 to 8 letters ("en", "pt", "zh")"#),
            ("en-", #"has an empty subtag ("--", or "-" at an end)"#),
            ("en--US", #"has an empty subtag ("--", or "-" at an end)"#),
            ("abcdefghi", "has a subtag longer than 8 characters"),
            ("de-1996-1996", #"repeats the variant "1996""#),
            ("en-a-bbb-a-ccc", #"repeats the extension "a""#),
            ("en-a", #"has the extension "a" without a subtag of 2 to 8 characters after it"#),
            ("en-x", #"has "x" without a private-use subtag after it"#),
            (
                "en-US-Latn",
                #"has "latn" where a script (4 letters), region (2 letters or 3 digits), variant, extension or "x-" private use may come, in that order"#
            ),
            ("fr FR", #"may hold only ASCII letters, digits and "-""#),
        ]
        for (tag, problem) in refused {
            #expect(
                Self.refusal(#""locale": "\#(tag)""#)
                    == #"locale: locale "\#(tag)" is not a BCP 47 language tag: \#(problem)"#, "\(tag)")
        }
        let atBound = "en-x-" + String(repeating: "abcdefgh-", count: 13) + "abcdef"
        #expect(atBound.utf8.count == 128)
        #expect(Self.refusal(#""locale": "\#(atBound)""#) == nil)
        #expect(
            Self.refusal(#""locale": "\#(atBound)g""#) == "locale: locale is 129 bytes, over the limit of 128")
    }

    /// One over each bound is refused; at the bound is accepted (and stored, below).
    @Test func theAttributeMapsBoundsHold() {
        func attributes(_ pairs: [(String, String)]) -> String {
            #""attributes": "# + JSONValue.object(JSONObject(pairs.map { ($0.0, .string($0.1)) })).jsonString
        }
        let keys32 = (1...32).map { ("k\($0)", "v") }
        #expect(Self.refusal(attributes(keys32)) == nil)
        #expect(
            Self.refusal(attributes(keys32 + [("k33", "v")]))
                == "attributes: attributes has 33 keys, over the limit of 32 (RegistryLimits.maxAttributes)")
        let key64 = String(repeating: "k", count: 64)
        #expect(Self.refusal(attributes([(key64, "v")])) == nil)
        #expect(
            Self.refusal(attributes([(key64 + "k", "v")]))
                == #"attributes: attribute key "\#(String(repeating: "k", count: 40))…" is not 1 to 64 bytes of A-Z, a-z, 0-9, "_", "." and "-""#
        )
        let value256 = String(repeating: "é", count: 128)
        #expect(Self.refusal(attributes([("plan", value256)])) == nil)
        #expect(
            Self.refusal(attributes([("plan", value256 + "x")]))
                == #"attributes: attribute "plan" is 257 bytes, over the limit of 256"#)
        #expect(
            Self.refusal(attributes([("plan tier", "pro")]))
                == #"attributes: attribute key "plan tier" is not 1 to 64 bytes of A-Z, a-z, 0-9, "_", "." and "-""#)
        #expect(
            Self.refusal(attributes([("", "pro")]))
                == #"attributes: attribute key "" is not 1 to 64 bytes of A-Z, a-z, 0-9, "_", "." and "-""#)
        #expect(
            Self.refusal(attributes([("plan", "a\u{7}b")]))
                == #"attributes: attribute "plan" has a control character at byte 1; control characters are not allowed"#
        )
        #expect(Self.refusal(#""attributes": {"seats": 5}"#) == "attributes.seats: expected a string, found 5")
        #expect(Self.refusal(#""attributes": ["a"]"#) == "attributes: expected an object, found an array")
    }

    @Test func theFieldsAreRegistersOnly() {
        let body = #"{"app": "chat", "provider": "apns", "token": "\#(Self.token)", "channels": ["c"], "locale": "en"}"#
        #expect(
            throws: RegistryCommandError(
                field: "locale", message: "is not a field of unregister (only register takes it)")
        ) {
            try RegistryCommand.decode(Array(body.utf8), routingKey: "unregister", fallbackID: nil, rules: Self.rules)
        }
    }

    /// The refused command's result is `registry_rejected` with the field in its reason.
    @Test func aRefusedCommandsResultNamesTheField() {
        let body = Array(
            #"{"app": "chat", "provider": "apns", "token": "\#(Self.token)", "channels": ["c"], "locale": "en_US"}"#
                .utf8)
        do {
            _ = try RegistryCommand.decode(body, routingKey: "register", fallbackID: nil, rules: Self.rules)
            Issue.record("accepted")
        } catch {
            let result = RegistryResult.rejected(
                error, body: body, routingKey: "register", fallbackID: nil, providers: .registered,
                at: Timestamp(seconds: 0))
            #expect(result.routingKey == "registry_rejected.apns.chat")
            #expect(result.reason?.hasPrefix(#"locale: locale "en_US" is not a BCP 47 language tag"#) == true)
        }
    }

    /// Set through a register on one channel, read on another; a register
    /// without the fields keeps them; `""` and `{}` clear them.
    @Test(arguments: Backend.allCases) func attributesAreTheDevicesOnEveryChannel(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let key64 = String(repeating: "k", count: 64)
            let attributes =
                (1...31).map { #""k\#($0)": "v\#($0)""# }.joined(separator: ", ")
                + #", "\#(key64)": "\#(String(repeating: "é", count: 128))""#
            _ = try await Self.register(
                #""timezone": "Europe/Paris", "locale": "fr-FR", "attributes": {\#(attributes)}"#
            ).apply(to: store, at: Devices.time())
            _ = try await Self.register("", channels: #"["room:general"]"#).apply(to: store, at: Devices.time(1))
            let expected = Dictionary(uniqueKeysWithValues: (1...31).map { ("k\($0)", "v\($0)") })
                .merging([key64: String(repeating: "é", count: 128)]) { $1 }
            for channel in ["user:42", "room:general"] {
                let page = try await store.devices(app: "chat", channel: channel, providers: nil, after: nil, limit: 10)
                let registration = try #require(page.registrations.first)
                #expect(registration.timezone == "Europe/Paris", "\(channel)")
                #expect(registration.locale == "fr-FR", "\(channel)")
                #expect(registration.attributes == expected, "\(channel)")
            }
            // A register on the second channel changes them for the first too.
            _ = try await Self.register(
                #""locale": "de-CH", "attributes": {"plan": "pro"}"#, channels: #"["room:general"]"#
            )
            .apply(to: store, at: Devices.time(2))
            var page = try await store.devices(app: "chat", channel: "user:42", providers: nil, after: nil, limit: 10)
            #expect(page.registrations.map(\.locale) == ["de-CH"])
            #expect(page.registrations.map(\.timezone) == ["Europe/Paris"])
            #expect(page.registrations.map(\.attributes) == [["plan": "pro"]])
            // null keeps; "" and {} clear.
            _ = try await Self.register(#""timezone": null, "locale": "", "attributes": {}"#).apply(
                to: store, at: Devices.time(3))
            page = try await store.devices(app: "chat", channel: "room:general", providers: nil, after: nil, limit: 10)
            #expect(page.registrations.map(\.timezone) == ["Europe/Paris"])
            #expect(page.registrations.map(\.locale) == [nil])
            #expect(page.registrations.map(\.attributes) == [[:]])
            _ = try await Self.register(#""timezone": """#).apply(to: store, at: Devices.time(4))
            let row = try #require(try await store.device(Self.register("").device))
            #expect(row.timezone == nil && row.locale == nil && row.attributes.isEmpty)
            #expect(row.lastSeen == Devices.time(4))
        }
    }

    /// The store checks what it is given too: nothing of a refused register is written.
    @Test(arguments: Backend.allCases) func theStoreRefusesAnUnknownTimeZone(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { (store: any RegistryStore) async throws in
            let device = Devices.fcm(1)
            let error = await registryError { () async throws(RegistryError) in
                try await store.register(
                    device, profile: DeviceProfile(timezone: "Mars/Olympus_Mons"), channels: ["a"], environment: nil,
                    topic: nil, at: Devices.time())
            }
            #expect(error?.kind == .invalidInput)
            #expect(error?.message.hasPrefix(#"unknown time zone "Mars/Olympus_Mons""#) == true)
            #expect(try await store.device(device) == nil)
            #expect(try await store.count(app: "chat", channel: "a") == 0)
        }
    }
}
