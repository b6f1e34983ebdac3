import HeraldAPNs
import HeraldConfig
import HeraldCore
import Testing

/// `apps.<app>.publishers`, `apps.<app>.apns.allowed_topics` and the
/// registry's per-app and per-channel caps: their shapes, their errors at
/// the key, and the advice for an app that lists no publishers.
@Suite struct PublisherConfigTests {
    static let app = """
        apps:
          chat:
            apns: {team_id: ABCDE12345, key_id: KEY1234567, key_file: apns.p8, topic: com.example.chat}

        """

    @Test func publishersAreReadAndSilenceTheAdvice() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(
            Self.app.replacingOccurrences(
                of: "    apns:",
                with: """
                        publishers: {events: [orders-svc], registry: [accounts-svc, admin]}
                        apns:
                    """))
        #expect(
            loaded.configuration.apps["chat"]?.publishers
                == PublisherSettings(events: ["orders-svc"], registry: ["accounts-svc", "admin"]))
        #expect(loaded.warnings.isEmpty)
        #expect(
            loaded.configuration.publishers(\.registry, ownUsers: ["herald"]) == [
                "chat": ["accounts-svc", "admin", "herald"]
            ])
        // A list left out is empty: nobody (but Herald itself) sends those.
        let eventsOnly = try fixture.load(
            Self.app.replacingOccurrences(of: "    apns:", with: "    publishers: {events: [orders-svc]}\n    apns:"))
        #expect(eventsOnly.configuration.publishers(\.registry, ownUsers: ["herald"]) == ["chat": ["herald"]])
    }

    @Test func anAppWithoutPublishersIsAWarningOfALoadedConfigOnly() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(Self.app)
        #expect(
            loaded.warnings.map { $0.description.replacingOccurrences(of: fixture.directory, with: "DIR") } == [
                "DIR/config.yaml:3:5: apps.chat: warning: app 'chat' has no publishers list: any AMQP user that can write to the events or "
                    + "registry exchange can send for it; list who may (publishers: {events: [orders-svc], registry: [accounts-svc]}, docs/security.md)"
            ])
        #expect(loaded.configuration.publishers(\.events, ownUsers: ["herald"]).isEmpty, "no list: nothing is checked")
        // A broken config reports its errors, not the advice.
        #expect(fixture.errors(Self.app + "retry: {max_attempts: 0}\n").count == 1)
    }

    @Test func badShapesAreErrorsAtTheKey() throws {
        let fixture = try ConfigFixture()
        func errors(_ publishers: String) -> [String] {
            fixture.errors(
                Self.app.replacingOccurrences(of: "    apns:", with: "    publishers: \(publishers)\n    apns:"))
        }
        #expect(
            errors("{event: [orders-svc]}") == [
                "DIR/config.yaml:3:18: apps.chat.publishers.event: unknown key 'event' (did you mean 'events'?)"
            ])
        #expect(
            errors("[orders-svc]") == [
                "DIR/config.yaml:3:17: apps.chat.publishers: expected a mapping, found a sequence"
            ])
        #expect(
            errors("{events: orders-svc}") == [
                "DIR/config.yaml:3:26: apps.chat.publishers.events: expected a sequence, found 'orders-svc'"
            ])
        #expect(
            errors(#"{events: [""], registry: ["a\u0001"]}"#) == [
                "DIR/config.yaml:3:27: apps.chat.publishers.events[0]: expected an AMQP user name, found an empty string",
                "DIR/config.yaml:3:43: apps.chat.publishers.registry[0]: an AMQP user name cannot have control characters",
            ])
        #expect(
            fixture.errors(
                Self.app.replacingOccurrences(of: "    apns:", with: "    publisher: {events: [a]}\n    apns:"))
                == ["DIR/config.yaml:3:5: apps.chat.publisher: unknown key 'publisher' (did you mean 'publishers'?)"])
    }

    @Test func allowedTopicsAndRegistryCapsAreChecked() throws {
        let fixture = try ConfigFixture()
        let topics = Self.app.replacingOccurrences(
            of: "topic: com.example.chat}", with: "topic: com.example.chat, allowed_topics: %@}")
        #expect(
            fixture.errors(topics.replacingOccurrences(of: "%@", with: "com.example.beta"))
                == [
                    "DIR/config.yaml:3:113: apps.chat.apns.allowed_topics: expected a sequence, found 'com.example.beta'"
                ])
        #expect(
            fixture.errors(topics.replacingOccurrences(of: "%@", with: #"["", "com.example beta"]"#)) == [
                "DIR/config.yaml:3:114: apps.chat.apns.allowed_topics[0]: expected a bundle ID (e.g. com.example.chat.beta); it is empty",
                "DIR/config.yaml:3:118: apps.chat.apns.allowed_topics[1]: expected a bundle ID (e.g. com.example.chat.beta); "
                    + "it has a character other than printable ASCII (a bundle ID such as com.example.app)",
            ])
        let allowed = try fixture.load(topics.replacingOccurrences(of: "%@", with: "[com.example.chat.beta]"))
        #expect(
            allowed.configuration.apps["chat"]?.section(APNsSettings.self)?.allowedTopics == ["com.example.chat.beta"])
        let registry = Self.app + "registry: {backend: sqlite, path: r.db, %@}\n"
        #expect(
            fixture.errors(
                registry.replacingOccurrences(
                    of: "%@", with: "max_registrations_per_app: 0, max_devices_per_channel: 2000000000")) == [
                    "DIR/config.yaml:4:68: registry.max_registrations_per_app: expected a number from 1 to 1000000000, found 0",
                    "DIR/config.yaml:4:96: registry.max_devices_per_channel: expected a number from 1 to 1000000000, found 2000000000",
                ])
        #expect(
            fixture.errors(registry.replacingOccurrences(of: "%@", with: "max_registrations_per_app: many"))
                == ["DIR/config.yaml:4:68: registry.max_registrations_per_app: expected an integer, found 'many'"])
        #expect(
            fixture.errors(registry.replacingOccurrences(of: "%@", with: "max_devices_per_app: 5")) == [
                "DIR/config.yaml:4:41: registry.max_devices_per_app: unknown key 'max_devices_per_app' "
                    + "(expected one of: backend, path, url, pool, max_registrations_per_app, max_devices_per_channel, "
                    + "expire_after, encryption_key, encryption_key_file)"
            ])
        // The key is a secret: its problem is said, never its value.
        #expect(
            fixture.errors(registry.replacingOccurrences(of: "%@", with: "encryption_key: c2VjcmV0")) == [
                "DIR/config.yaml:4:57: registry.encryption_key: expected base64 of 32 bytes (found 6 bytes); "
                    + "make one with: openssl rand -base64 32"
            ])
        #expect(
            fixture.errors(
                registry.replacingOccurrences(
                    of: "%@",
                    with: "encryption_key: AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=, encryption_key_file: k"))
                == [
                    "DIR/config.yaml:4:57: registry.encryption_key: give encryption_key or encryption_key_file, not both"
                ])
        let set = try fixture.load(
            registry.replacingOccurrences(of: "%@", with: "max_registrations_per_app: 500, max_devices_per_channel: 50")
        )
        #expect(set.configuration.registry?.maxRegistrationsPerApp == 500)
        #expect(set.configuration.registry?.maxDevicesPerChannel == 50)
        let defaults = try fixture.load(registry.replacingOccurrences(of: ", %@", with: ""))
        #expect(defaults.configuration.registry?.maxRegistrationsPerApp == 10_000_000)
        #expect(defaults.configuration.registry?.maxDevicesPerChannel == 1_000_000)
        #expect(defaults.configuration.registry?.expireAfter == nil)
        let expiring = try fixture.load(registry.replacingOccurrences(of: "%@", with: "expire_after: 270d"))
        #expect(expiring.configuration.registry?.expireAfter == ConfigDuration(milliseconds: 270 * 86_400_000))
        #expect(
            fixture.errors(registry.replacingOccurrences(of: "%@", with: "expire_after: 0s")) == [
                "DIR/config.yaml:4:55: registry.expire_after: must be at least 1s, found 0s; leave it out to keep "
                    + "devices until they are unregistered (e.g. 270d retires those not seen for 270 days)"
            ])
    }
}
