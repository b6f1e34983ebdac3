import HeraldFCM
import HeraldAPNs
import Foundation
import HeraldConfig
import HeraldCore
import Testing

@Suite struct ConfigValidationTests {
    @Test func appWithoutProviderIsAnError() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors("apps:\n  chat: {}\n") == [
                "DIR/config.yaml:2:9: apps.chat: app 'chat' has no provider: give it an apns, fcm or webpush section (or several)"
            ])
    }

    @Test func aWebPushSectionNeedsExactlyOneKeyAndASubject() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors(
            """
            apps:
              web:
                webpush:
                  vapid: {private_key_pem: "-----BEGIN PRIVATE KEY-----", private_key: "short", subject: ""}
                  connections: 0
                  timeout: 0s
            """)
        let messages = errors.map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? $0 }
        #expect(
            messages.contains(
                "apps.web.webpush.vapid: give exactly one of private_key_file, private_key_pem or private_key; found private_key_pem and private_key"
            ), "\(errors)")
        #expect(
            messages.contains(
                "apps.web.webpush.vapid.private_key: expected the 32-byte P-256 private key in URL-safe base64 (43 characters)"
            ), "\(errors)")
        #expect(
            messages.contains(
                "apps.web.webpush.vapid.subject: expected a contact: mailto:name@example.com or an https: URL"),
            "\(errors)")
        #expect(
            errors.contains {
                $0.hasSuffix(
                    "apps.web.webpush.timeout: a request timeout must be above 0 (a request without one can hang forever)"
                )
            }, "\(errors)")
        #expect(errors.contains { $0.contains("apps.web.webpush.connections") }, "\(errors)")
    }

    @Test func aWebPushOnlyAppIsValid() throws {
        let fixture = try ConfigFixture()
        let key = String(repeating: "A", count: 42) + "E"
        #expect(
            fixture.errors(
                "apps:\n  web:\n    webpush:\n      vapid: {private_key: \(key), subject: \"mailto:ops@example.com\"}\n"
            ) == ["(loaded without error)"])
    }

    @Test func webPushAllowedHostsAreHostNamesIPLiteralsOrAStar() throws {
        let fixture = try ConfigFixture()
        let key = String(repeating: "A", count: 42) + "E"
        let section =
            "apps:\n  web:\n    webpush:\n      vapid: {private_key: \(key), subject: \"mailto:ops@example.com\"}\n"
        #expect(
            fixture.errors(
                section
                    + "      allowed_hosts: [push.apple.com, \"*\", 127.0.0.1]\n      unsafe_allow_internal_addresses: true\n"
            )
                == ["(loaded without error)"])
        #expect(
            fixture.errors(section + "      allowed_hosts: [\"*.push.apple.com\", \"https://fcm.googleapis.com\"]\n")
                == [
                    "DIR/config.yaml:5:23: apps.web.webpush.allowed_hosts[0]: \"*.push.apple.com\" is not a host name (labels of letters, digits, '-' or '_' between dots; '*' alone allows any host)",
                    "DIR/config.yaml:5:43: apps.web.webpush.allowed_hosts[1]: \"https://fcm.googleapis.com\" is not a host name (labels of letters, digits, '-' or '_' between dots; '*' alone allows any host)",
                ])
        #expect(
            fixture.errors(section + "      allowed_hosts: []\n") == [
                "DIR/config.yaml:5:22: apps.web.webpush.allowed_hosts: is empty, so no subscription could be sent to; list push service hosts, or [\"*\"] for any public host"
            ])
    }

    @Test func noAppsIsAnError() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors("apps: {}\n") == [
                "DIR/config.yaml:1:7: apps: no apps: define at least one app with apns, fcm or webpush credentials"
            ])
    }

    @Test func apnsNeedsExactlyOneAuthMode() throws {
        let fixture = try ConfigFixture()
        try fixture.write("cert.p12", "binary")
        #expect(
            fixture.errors(
                """
                apps:
                  chat:
                    apns:
                      team_id: ABCDE12345
                      key_id: KEY1234567
                      key_file: apns.p8
                      certificate_file: cert.p12
                      topic: com.example.chat
                """) == [
                    "DIR/config.yaml:4:7: apps.chat.apns: give exactly one of key_file, key_pem (token auth), certificate_file or certificate_pem (certificate auth); found key_file and certificate_file"
                ])
        #expect(
            fixture.errors("apps:\n  chat:\n    apns:\n      topic: com.example.chat\n") == [
                "DIR/config.yaml:4:7: apps.chat.apns: give exactly one of key_file, key_pem (token auth), certificate_file or certificate_pem (certificate auth); found none"
            ])
    }

    @Test func tokenAuthNeedsTeamAndKeyIDs() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(
                """
                apps:
                  chat:
                    apns:
                      team_id: abc
                      key_file: apns.p8
                      topic: com.example.chat
                """) == [
                    "DIR/config.yaml:4:7: apps.chat.apns.key_id: token auth needs key_id (10 characters, from Apple's developer account)",
                    "DIR/config.yaml:4:16: apps.chat.apns.team_id: expected 10 upper-case letters or digits, found 'abc'",
                ])
    }

    /// `certificate_pem` is exclusive with `certificate_file`, and text that is
    /// no certificate is refused without being echoed.
    @Test func certificatePEMIsExclusiveAndCheckedWithoutEchoingIt() throws {
        let fixture = try ConfigFixture()
        func errors(_ apns: String) -> [String] {
            fixture.errors(
                """
                apps:
                  chat:
                    apns:
                \(apns)
                      topic: com.example.chat
                """, environment: ["APNS_CERT": "SECRET-MATERIAL"])
        }
        #expect(
            errors("      certificate_file: cert.p12\n      certificate_pem: ${APNS_CERT}").contains {
                $0.hasSuffix("found certificate_file and certificate_pem")
            })
        let refused = errors("      certificate_pem: ${APNS_CERT}")
        #expect(
            refused == [
                "DIR/config.yaml:4:24: apps.chat.apns.certificate_pem: expected the PEM of the APNs certificate and its key (starting with -----BEGIN CERTIFICATE-----)"
            ], "\(refused)")
        #expect(refused.allSatisfy { !$0.contains("SECRET") })
    }

    @Test func missingKeyFileIsNamedWithItsPath() throws {
        let fixture = try ConfigFixture()
        let yaml = ConfigFixture.minimal.replacingOccurrences(
            of: "key_file: apns.p8", with: "key_file: keys/missing.p8")
        #expect(
            fixture.errors(yaml) == [
                "DIR/config.yaml:6:17: apps.chat.apns.key_file: APNs key file 'DIR/keys/missing.p8' does not exist"
            ])
    }

    /// With `unusable_credentials: not_ready` a missing key file does not stop
    /// the config from loading: only its app will not be ready.
    @Test func missingKeyFileWithNotReadyIsAWarning() throws {
        let fixture = try ConfigFixture()
        let yaml =
            ConfigFixture.minimal.replacingOccurrences(
                of: "key_file: apns.p8", with: "key_file: keys/missing.p8") + "\nunusable_credentials: not_ready\n"
        let loaded = try fixture.load(yaml)
        #expect(
            loaded.otherWarnings.map { $0.message.replacingOccurrences(of: fixture.directory, with: "DIR") } == [
                "warning: APNs key file 'DIR/keys/missing.p8' does not exist; this app will not be ready (unusable_credentials: not_ready)"
            ])
    }

    @Test func keyFileThatIsNotAPEMKey() throws {
        let fixture = try ConfigFixture()
        try fixture.write("apns.p8", "not a key")
        #expect(
            fixture.errors(ConfigFixture.minimal) == [
                "DIR/config.yaml:6:17: apps.chat.apns.key_file: expected a PEM private key (the .p8 file from Apple, starting with -----BEGIN PRIVATE KEY-----)"
            ])
    }

    @Test func fcmNeedsExactlyOneKeySource() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors("apps:\n  chat:\n    fcm:\n      project_id: p\n") == [
                "DIR/config.yaml:4:7: apps.chat.fcm: give exactly one of service_account_file or service_account_json; found none"
            ])
        #expect(
            fixture.errors(
                "apps:\n  chat:\n    fcm:\n      service_account_file: fcm.json\n      service_account_json: '{}'\n")
                == [
                    "DIR/config.yaml:4:7: apps.chat.fcm: give exactly one of service_account_file or service_account_json; found both"
                ])
    }

    @Test func serviceAccountFieldsAreChecked() throws {
        let fixture = try ConfigFixture()
        try fixture.write("fcm.json", #"{"type": "authorized_user", "client_email": "x"}"#)
        let errors = fixture.errors("apps:\n  chat:\n    fcm:\n      service_account_file: fcm.json\n")
        #expect(
            errors == [
                "DIR/config.yaml:4:7: apps.chat.fcm: no project_id, and the service account does not name one",
                "DIR/config.yaml:4:29: apps.chat.fcm.service_account_file: the key's type is 'authorized_user', expected 'service_account'",
                "DIR/config.yaml:4:29: apps.chat.fcm.service_account_file: the service account has no 'private_key'",
                "DIR/config.yaml:4:29: apps.chat.fcm.service_account_file: the service account has no 'private_key_id'",
            ])
        // No token_uri: Google's (as the FCM provider reads the key); a clear-text one is refused.
        try fixture.write(
            "fcm.json",
            """
            {"type": "service_account", "project_id": "demo", "private_key_id": "abc", "client_email": "svc@demo.iam.gserviceaccount.com",
             "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n", "token_uri": "http://oauth2.example.com/token"}
            """)
        #expect(
            fixture.errors("apps:\n  chat:\n    fcm:\n      service_account_file: fcm.json\n") == [
                "DIR/config.yaml:4:29: apps.chat.fcm.service_account_file: the service account's token_uri 'http://oauth2.example.com/token' is not an https:// URL"
            ])
        try fixture.write("fcm.json", "not json")
        #expect(
            fixture.errors("apps:\n  chat:\n    fcm:\n      service_account_file: fcm.json\n      project_id: p\n") == [
                "DIR/config.yaml:4:29: apps.chat.fcm.service_account_file: the service account is not a JSON object (download the key again from the Google Cloud console)"
            ])
    }

    @Test func endpointsMustBeHTTPS() throws {
        let fixture = try ConfigFixture()
        let yaml = ConfigFixture.minimal.replacingOccurrences(
            of: "topic: com.example.chat", with: "topic: com.example.chat\n      endpoint: http://127.0.0.1:2197")
        #expect(
            fixture.errors(yaml) == [
                "DIR/config.yaml:8:17: apps.chat.apns.endpoint: expected an https:// URL, found 'http://127.0.0.1:2197' (Herald never sends notifications in clear text)"
            ])
    }

    /// `endpoints` sends each APNs environment's devices to a host of its own;
    /// the app's own environment is given once, and a mistyped one is an unknown key.
    @Test func apnsEndpointsArePerEnvironment() throws {
        let fixture = try ConfigFixture()
        let both = ConfigFixture.minimal.replacingOccurrences(
            of: "topic: com.example.chat",
            with:
                "topic: com.example.chat\n      endpoint: https://127.0.0.1:2197\n      endpoints: {production: https://127.0.0.1:2198, sandbox: http://127.0.0.1:2199}"
        )
        #expect(
            fixture.errors(both) == [
                "DIR/config.yaml:9:31: apps.chat.apns.endpoints.production: endpoint and endpoints.production both give the production endpoint; give one",
                "DIR/config.yaml:9:64: apps.chat.apns.endpoints.sandbox: expected an https:// URL, found 'http://127.0.0.1:2199' (Herald never sends notifications in clear text)",
            ])
        let typo = ConfigFixture.minimal.replacingOccurrences(
            of: "topic: com.example.chat",
            with: "topic: com.example.chat\n      endpoints: {sandbx: https://127.0.0.1:2199}")
        #expect(
            fixture.errors(typo).first?.contains("unknown key 'sandbx' (did you mean 'sandbox'?)") == true,
            "\(fixture.errors(typo))")
    }

    @Test func theOtherAPNsEnvironmentIsAppleUnlessAnEndpointReplacesIt() throws {
        func settings(_ extra: String) throws -> APNsSettings {
            let fixture = try ConfigFixture()
            let yaml = ConfigFixture.minimal.replacingOccurrences(
                of: "topic: com.example.chat", with: "topic: com.example.chat" + extra)
            return try #require(try fixture.load(yaml).configuration.apps["chat"]?.section(APNsSettings.self))
        }
        let apple = try settings("")
        #expect(apple.baseURL(for: .production) == "https://api.push.apple.com")
        #expect(apple.baseURL(for: .sandbox) == "https://api.sandbox.push.apple.com")
        let simulator = try settings("\n      endpoint: https://127.0.0.1:2197")
        #expect(
            simulator.baseURL(for: .production) == "https://127.0.0.1:2197" && simulator.baseURL(for: .sandbox) == nil)
        let both = try settings(
            "\n      endpoint: https://127.0.0.1:2197\n      endpoints: {sandbox: https://127.0.0.1:2198}")
        #expect(both.baseURL(for: .sandbox) == "https://127.0.0.1:2198")
    }

    @Test func credentialsInAnEndpointOrTokenURIAreRefusedWithThePasswordHidden() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "fcm.json",
            """
            {"type": "service_account", "project_id": "demo", "private_key_id": "abc",
             "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n",
             "client_email": "svc@demo.iam.gserviceaccount.com", "token_uri": "https://svc:hunter2@oauth2.example.com/token"}
            """)
        let yaml = ConfigFixture.minimal.replacingOccurrences(
            of: "topic: com.example.chat",
            with: "topic: com.example.chat\n      endpoint: https://apns:hunter2@127.0.0.1:2197")
        let errors = fixture.errors(yaml)
        #expect(
            errors == [
                "DIR/config.yaml:8:17: apps.chat.apns.endpoint: 'https://apns:***@127.0.0.1:2197' carries user info (user:password@); give an https:// URL without credentials",
                "DIR/config.yaml:10:29: apps.chat.fcm.service_account_file: the service account's token_uri 'https://svc:***@oauth2.example.com/token' carries user info (user:password@); remove it",
            ])
        #expect(!errors.joined().contains("hunter2"))
    }

    @Test func aHeartbeatBeyondSixteenBitsOfSecondsIsRefused() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(ConfigFixture.minimal + "amqp: {heartbeat: 70000s}\n") == [
                "DIR/config.yaml:10:19: amqp.heartbeat: expected 0 (off) or 1s to 65535s (AMQP carries it in 16 bits), found 19h26m40s"
            ])
    }

    @Test func aHugeValueIsNamedByItsSizeNotEchoed() throws {
        let fixture = try ConfigFixture()
        let huge = String(repeating: "a b ", count: 1 << 18)
        let errors = fixture.errors(
            ConfigFixture.minimal.replacingOccurrences(of: "topic: com.example.chat", with: "topic: ${TOPIC}"),
            environment: ["TOPIC": huge])
        #expect(
            errors == [
                "DIR/config.yaml:7:14: apps.chat.apns.topic: expected the app's bundle id (e.g. com.example.chat), found '"
                    + String(huge.prefix(57)) + "... (1 MiB in all)'"
            ])
    }

    @Test func aKeyFileReadableByEveryUserIsAWarning() throws {
        let fixture = try ConfigFixture()
        try fixture.write(
            "apns.p8",
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n",
            mode: 0o644)
        let loaded = try fixture.load(ConfigFixture.minimal)
        #expect(
            loaded.otherWarnings.map(\.message) == [
                "warning: APNs key file '\(fixture.directory)/apns.p8' is readable by every user (mode 0644); chmod 600 it"
            ])
    }

    @Test func routeNamingAnUnknownAppSuggestsTheNearest() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(
                ConfigFixture.minimal + """
                    routes:
                      - name: default
                        app: chatt
                    """) == [
                    "DIR/config.yaml:12:10: routes[0].app: unknown app 'chatt' (did you mean 'chat'?) (apps: chat)"
                ])
    }

    @Test func aRouteRateIsOneRateAboveZeroABurstOfAtLeastOneAndDelayOrDrop() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(
            ConfigFixture.minimal + """
                routes:
                  - name: paced
                    rate: {per_minute: 600, burst: 20, on_exceed: drop}
                  - name: smooth
                    match: {app: other}
                    rate: {per_second: 50}
                """)
        let rates = loaded.configuration.routes.map(\.rate)
        #expect(
            rates[0]?.ratePerSecond == 10 && rates[0]?.burst == 20 && rates[0]?.onExceed == .drop
                && rates[0]?.spelled == "600/min")
        #expect(
            rates[1]?.ratePerSecond == 50 && rates[1]?.burst == 1 && rates[1]?.onExceed == .delay
                && rates[1]?.spelled == "50/s")
        #expect(
            fixture.errors(
                ConfigFixture.minimal + """
                    routes:
                      - name: r
                        rate: {per_second: 5, per_minute: 300, burst: 0}
                    """) == [
                    "DIR/config.yaml:12:11: routes[0].rate: give one of per_second and per_minute, not both",
                    "DIR/config.yaml:12:51: routes[0].rate.burst: a burst must be at least 1, found 0",
                ])
        #expect(
            fixture.errors(
                ConfigFixture.minimal + """
                    routes:
                      - name: r
                        rate: {per_second: 0}
                    """) == [
                    "DIR/config.yaml:12:24: routes[0].rate.per_second: a rate must be above 0 (a route that sends nothing is drop:)"
                ])
        let word = fixture.errors(
            ConfigFixture.minimal + """
                routes:
                  - name: r
                    rate: {per_second: 5, on_exceed: queue}
                """)
        #expect(
            word.count == 1
                && word.first?.contains("routes[0].rate.on_exceed: unknown on_exceed 'queue' (expected delay or drop)")
                    == true,
            "\(word)")
    }

    @Test func ratesAndThrottlesOutsideTheirBoundsAreRefusedNamingTheKeyAndTheRange() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(
                ConfigFixture.minimal + """
                    routes:
                      - name: fast
                        match: {app: c}
                        rate: {per_second: 1e300}
                      - name: slow
                        match: {app: a}
                        rate: {per_second: 1e-300}
                      - name: minute
                        match: {app: b}
                        rate: {per_minute: 1e11}
                    """) == [
                    "DIR/config.yaml:13:24: routes[0].rate.per_second: expected a rate from 0.000001 to 1000000000 per second, found 1e+300",
                    "DIR/config.yaml:16:24: routes[1].rate.per_second: expected a rate from 0.000001 to 1000000000 per second, found 1e-300",
                    "DIR/config.yaml:19:24: routes[2].rate.per_minute: expected a rate from 0.00006 to 60000000000 per minute, found 100000000000.0",
                ])
        let throttles = fixture.errors(
            ConfigFixture.minimal
                .replacingOccurrences(
                    of: "      topic: com.example.chat\n",
                    with: "      topic: com.example.chat\n      max_per_second: 1e300\n"
                )
                .replacingOccurrences(
                    of: "      service_account_file: fcm.json\n",
                    with: "      service_account_file: fcm.json\n      max_per_minute: 1e-300\n"))
        #expect(throttles.count == 2, "\(throttles)")
        #expect(
            throttles.contains {
                $0.contains(
                    "apps.chat.apns.max_per_second: expected a rate from 0.000001 to 1000000000 per second, found 1e+300"
                )
            },
            "\(throttles)")
        #expect(
            throttles.contains {
                $0.contains(
                    "apps.chat.fcm.max_per_minute: expected a rate from 0.00006 to 60000000000 per minute, found 1e-300"
                )
            },
            "\(throttles)")
        // The bounds themselves are allowed.
        let bounds = try fixture.load(
            ConfigFixture.minimal + """
                routes:
                  - name: r
                    match: {app: a}
                    rate: {per_second: 0.000001}
                  - name: s
                    rate: {per_second: 1000000000}
                """)
        #expect(bounds.configuration.routes.map { $0.rate?.ratePerSecond } == [0.000001, 1_000_000_000])
    }

    @Test func providerThrottlesAndTheDuplicateWindowAreRead() throws {
        let fixture = try ConfigFixture()
        let yaml = ConfigFixture.minimal
            .replacingOccurrences(
                of: "      topic: com.example.chat\n",
                with: "      topic: com.example.chat\n      max_per_second: 200\n"
            )
            .replacingOccurrences(
                of: "      service_account_file: fcm.json\n",
                with: "      service_account_file: fcm.json\n      max_per_minute: 600000\n")
        let loaded = try fixture.load(yaml + "duplicate_window: 2m\n")
        #expect(loaded.configuration.apps["chat"]?.section(APNsSettings.self)?.maxPerSecond == 200)
        #expect(loaded.configuration.apps["chat"]?.section(FCMSettings.self)?.maxPerMinute == 600_000)
        #expect(loaded.configuration.duplicateWindow == .seconds(120))
        #expect(
            try fixture.load(ConfigFixture.minimal).configuration.duplicateWindow == .seconds(600),
            "10 minutes by default")
        let errors = fixture.errors(
            ConfigFixture.minimal.replacingOccurrences(
                of: "      topic: com.example.chat\n", with: "      topic: com.example.chat\n      max_per_second: -1\n"
            ))
        #expect(
            errors.count == 1
                && errors.first?.contains("apps.chat.apns.max_per_second: a throttle must be above 0, found -1.0")
                    == true,
            "\(errors)")
    }

    @Test func routeMatchKeysProvidersAndValuesAreChecked() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors(
            ConfigFixture.minimal + """
                routes:
                  - name: r1
                    match: {routing_kye: "a.#", push_type: alrt, provider: apn, priority: urgent}
                    providers: [fcm, hms]
                    set: {priority: hihg, ttl: -1}
                """)
        #expect(
            errors == [
                "DIR/config.yaml:12:26: routes[0].match.routing_kye: unknown match key 'routing_kye' (did you mean 'routing_key'?) (expected one of: routing_key, headers, app, provider, push_type, priority, data.<key>)",
                "DIR/config.yaml:12:44: routes[0].match.push_type: unknown push type 'alrt' (did you mean 'alert'?) (expected one of: alert, background, voip, liveactivity, complication, fileprovider, mdm, location, pushtotalk, widgets)",
                "DIR/config.yaml:12:60: routes[0].match.provider: unknown provider 'apn' (did you mean 'apns'?) (expected apns, fcm, webpush, ios or android)",
                "DIR/config.yaml:12:75: routes[0].match.priority: unknown priority 'urgent' (expected one of: high, normal, low)",
                "DIR/config.yaml:13:22: routes[0].providers[1]: unknown provider 'hms' (expected apns, fcm, webpush, ios or android)",
                "DIR/config.yaml:14:21: routes[0].set.priority: unknown priority 'hihg' (did you mean 'high'?) (expected one of: high, normal, low)",
                "DIR/config.yaml:14:32: routes[0].set.ttl: expected seconds ≥ 0, found -1",
            ])
    }

    @Test func duplicateRouteNamesAndUnreachableRules() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors(
            ConfigFixture.minimal + """
                routes:
                  - name: everything
                    app: chat
                  - name: everything
                    match: {app: x}
                """)
        #expect(
            errors == [
                "DIR/config.yaml:13:11: routes[1].name: route name 'everything' is already used by routes[0]",
                "DIR/config.yaml:13:5: routes[1]: warning: route 'everything' can never match: route 'everything' before it matches everything",
            ])
    }

    @Test func routesCompileIntoTheRouter() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(
            ConfigFixture.minimal + """
                routes:
                  - name: promos
                    match: {routing_key: ["promo.#", "ads.*"], data.kind: promo, provider: android, headers: {x-tenant: [a, b]}}
                    providers: [android]
                    defaults: {sound: default}
                  - name: mute
                    drop: "muted"
                  - name: default
                    app: chat
                """)
        #expect(
            loaded.router.rules == [
                RoutingRule(
                    name: "promos",
                    match: RouteMatch(
                        routingKeys: [TopicPattern("promo.#"), TopicPattern("ads.*")],
                        headers: ["x-tenant": ["a", "b"]], fields: [.data("kind"): ["promo"], .provider: ["fcm"]]),
                    defaults: EventOverrides(sound: "default"), providers: [.fcm]),
                RoutingRule(name: "mute", drop: "muted"),
                RoutingRule(name: "default", app: "chat"),
            ])
        #expect(
            loaded.otherWarnings.map(\.message) == [
                "warning: route 'default' can never match: route 'mute' before it matches everything"
            ])
    }

    @Test func ackDelayIsZeroToOneSecond() throws {
        let fixture = try ConfigFixture()
        let tooLong = fixture.errors(ConfigFixture.minimal + "amqp: {ack_delay: 2s}\n")
        #expect(tooLong.contains { $0.hasSuffix("amqp.ack_delay: expected 0 (off) to 1s, found 2s") }, "\(tooLong)")
        let off = try fixture.load(ConfigFixture.minimal + "amqp: {ack_delay: 0s}\n")
        #expect(off.configuration.amqp.ackDelay.milliseconds == 0)
    }

    @Test func ioPacingIsOffOrUpToTenMilliseconds() throws {
        let fixture = try ConfigFixture()
        #expect(try fixture.load(ConfigFixture.minimal).configuration.ioPacing.milliseconds == 2, "the default")
        let tooLong = fixture.errors(ConfigFixture.minimal + "io_pacing: 20ms\n")
        #expect(
            tooLong.contains {
                $0.hasSuffix(
                    "io_pacing: expected 0s (off) to 10ms, found 20ms (it is added to each hop's wait while busy)")
            },
            "\(tooLong)")
        let off = try fixture.load(ConfigFixture.minimal + "io_pacing: 0s\n")
        #expect(off.configuration.ioPacing.milliseconds == 0)
    }

    @Test func aRegistryIsAnSQLiteFileOrAPostgreSQLServer() throws {
        let fixture = try ConfigFixture()
        #expect(try fixture.load(ConfigFixture.minimal).configuration.registry == nil, "no section: no registry")
        let sqlite = try fixture.load(ConfigFixture.minimal + "registry: {backend: sqlite, path: devices.db}\n")
        #expect(sqlite.configuration.registry == RegistrySettings(backend: .sqlite, path: "devices.db"))
        let postgres = try fixture.load(
            ConfigFixture.minimal
                + "registry: {backend: postgres, url: \"postgres://h:${PW}@db:5432/herald\", pool: 8}\n",
            environment: ["PW": "s3cret"])
        #expect(postgres.configuration.registry?.url == "postgres://h:s3cret@db:5432/herald")
        #expect(postgres.configuration.registry?.pool == 8)

        #expect(
            fixture.errors(ConfigFixture.minimal + "registry: {backend: sqlite, url: \"postgres://db/x\"}\n") == [
                "DIR/config.yaml:10:11: registry.path: backend sqlite needs the database file: path: herald-registry.db",
                "DIR/config.yaml:10:34: registry.url: 'url' does not apply to backend sqlite",
            ])
        #expect(
            fixture.errors(
                ConfigFixture.minimal
                    + "registry: {backend: postgres, url: \"mysql://u:pw@db/x\", pool: 0, path: a.db}\n") == [
                    "DIR/config.yaml:10:36: registry.url: expected a postgres:// or postgresql:// URL, found 'mysql://u:***@db/x'",
                    "DIR/config.yaml:10:63: registry.pool: expected a number from 1 to 64, found 0",
                    "DIR/config.yaml:10:72: registry.path: 'path' does not apply to backend postgres",
                ])
        let unknown = fixture.errors(ConfigFixture.minimal + "registry: {backend: mongo}\n")
        #expect(
            unknown.contains(
                "DIR/config.yaml:10:21: registry.backend: unknown value 'mongo' (expected one of: sqlite, postgres)"),
            "\(unknown)")
    }

    @Test func aPostgreSQLURLLibpqCannotReadIsRefusedWithoutItsPassword() throws {
        let fixture = try ConfigFixture()
        for (password, problem) in [
            ("pa%zz", "the password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"),
            ("Sup3r%00Secret", "the password holds %00, which libpq refuses"),
        ] {
            let errors = fixture.errors(
                ConfigFixture.minimal
                    + "registry: {backend: postgres, url: \"postgres://herald:${PW}@127.0.0.1/herald\"}\n",
                environment: ["PW": password])
            #expect(
                errors == [
                    "DIR/config.yaml:10:36: registry.url: 'postgres://herald:***@127.0.0.1/herald' cannot be used: \(problem)"
                ])
        }
        let query = fixture.errors(
            ConfigFixture.minimal
                + "registry: {backend: postgres, url: \"postgres://herald@127.0.0.1/herald?password=pa%zz\"}\n")
        #expect(
            query == [
                "DIR/config.yaml:10:36: registry.url: 'postgres://herald@127.0.0.1/herald' cannot be used: "
                    + "the value of password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"
            ])
    }

    @Test func aServerElsewhereWithoutVerifyFullIsAWarning() throws {
        let fixture = try ConfigFixture()
        func warnings(_ url: String) throws -> [String] {
            try fixture.load(ConfigFixture.minimal + "registry: {backend: postgres, url: \"\(url)\"}\n").otherWarnings
                .map(\.message)
        }
        let advice = "give sslmode=verify-full&sslrootcert=<CA file> (docs/registry.md)"
        #expect(
            try warnings("postgres://h:s3cret@db.example.com/herald?sslmode=require") == [
                "warning: 'postgres://h:***@db.example.com/herald' has sslmode=require, which encrypts but checks no certificate "
                    + "('db.example.com' is not on this machine); \(advice)"
            ])
        #expect(
            try warnings("postgres://h:s3cret@10.0.0.5/herald") == [
                "warning: 'postgres://h:***@10.0.0.5/herald' gives no sslmode, so libpq's default, prefer, sends in clear text "
                    + "to a server without TLS and checks no certificate ('10.0.0.5' is not on this machine); \(advice)"
            ])
        #expect(
            try warnings("postgres://h:s3cret@db/herald?sslmode=verify-ca").first?.contains(
                "checks the certificate's CA but not that it names the server") == true)
        #expect(
            try warnings("postgres://h:s3cret@db/herald?sslmode=disable").first?.contains(
                "has sslmode=disable, which may send in clear text") == true)
        #expect(
            try warnings("postgres://h:s3cret@127.0.0.1,db2/herald?sslmode=require").first?.contains(
                "('db2' is not on this machine)") == true,
            "one remote host of several is enough")
        // On this machine, or verified: no warning.
        #expect(try warnings("postgres://h:s3cret@127.0.0.1:5433/herald?sslmode=require") == [])
        #expect(try warnings("postgres://h:s3cret@localhost/herald") == [])
        #expect(try warnings("postgres://h:s3cret@[::1]/herald?sslmode=disable") == [])
        #expect(try warnings("postgres:///herald?host=/var/run/postgresql") == [])
        #expect(
            try warnings(
                "postgres://h:s3cret@db.example.com/herald?sslmode=verify-full&sslrootcert=/etc/herald/db-ca.pem") == []
        )
    }

    @Test func registryCommandsHaveAnExchangeAndAQueueOfTheirOwn() throws {
        let fixture = try ConfigFixture()
        let defaults = try fixture.load(ConfigFixture.minimal).configuration.amqp
        #expect(defaults.registryExchange == "herald.registry" && defaults.registryQueue == "herald.registry")
        let named = try fixture.load(
            ConfigFixture.minimal + "amqp: {registry_exchange: x.commands, registry_queue: x.commands}\n")
        #expect(
            named.configuration.amqp.registryExchange == "x.commands"
                && named.configuration.amqp.registryQueue == "x.commands")
        let shared = fixture.errors(
            ConfigFixture.minimal + "amqp: {registry_exchange: herald.events, registry_queue: amq.x}\n")
        #expect(
            shared.contains {
                $0.hasSuffix(
                    "amqp.registry_exchange: 'herald.events' is also amqp.events_exchange; give registry commands names of their own"
                )
            },
            "\(shared)")
        #expect(
            shared.contains {
                $0.hasSuffix(
                    "amqp.registry_queue: 'amq.x' is not a usable name (1 to 255 bytes, not starting with 'amq.', which RabbitMQ reserves)"
                )
            },
            "\(shared)")
    }

    @Test func timeoutRetriesDefaultToOneAndAreRangeChecked() throws {
        let fixture = try ConfigFixture()
        #expect(try fixture.load(ConfigFixture.minimal).configuration.apps["chat"]?.timeoutRetries == 1)
        let none = try fixture.load(
            ConfigFixture.minimal.replacingOccurrences(of: "  chat:\n", with: "  chat:\n    timeout_retries: 0\n"))
        #expect(none.configuration.apps["chat"]?.timeoutRetries == 0)
        #expect(
            fixture.errors(
                ConfigFixture.minimal.replacingOccurrences(of: "  chat:\n", with: "  chat:\n    timeout_retries: 9\n"))
                == [
                    "DIR/config.yaml:3:22: apps.chat.timeout_retries: expected a number from 0 to 5, found 9"
                ])
    }

    @Test func retryOutcomesHTTPAndLogAreRangeChecked() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors(
            ConfigFixture.minimal + """
                amqp: {prefetch: 0, queue: amq.mine, concurrency: 0}
                retry: {max_attempts: 0, delays: [50ms]}
                outcomes: {publish: [deliverd]}
                http: {listen: "localhost"}
                """)
        #expect(
            errors == [
                "DIR/config.yaml:10:18: amqp.prefetch: expected a number from 1 to 65535, found 0",
                "DIR/config.yaml:10:28: amqp.queue: 'amq.mine' is not a usable name (1 to 255 bytes, not starting with 'amq.', which RabbitMQ reserves)",
                "DIR/config.yaml:10:51: amqp.concurrency: expected a number from 1 to 65535, found 0",
                "DIR/config.yaml:11:23: retry.max_attempts: expected a number from 1 to 100, found 0",
                "DIR/config.yaml:11:35: retry.delays[0]: a retry delay must be at least 100ms, found 50ms",
                "DIR/config.yaml:12:22: outcomes.publish[0]: unknown outcome status 'deliverd' (did you mean 'delivered'?) (expected one of: delivered, invalid_token, failed, retrying, expired, dropped, rejected)",
                "DIR/config.yaml:13:16: http.listen: expected host:port with a port from 0 (any free port) to 65535, found 'localhost'",
                "DIR/config.yaml:12:21: outcomes.publish: warning: invalid_token outcomes are not published, so upstream never learns which tokens are dead",
            ])
    }

    /// `amqp.consumer_timeout`: 0s or 1m to 24h; a value not above the
    /// longest hold (4 x the longest provider timeout + shutdown_deadline) is a warning.
    @Test func consumerTimeoutIsRangeCheckedAndWarnedWhenNotAboveTheLongestHold() throws {
        let fixture = try ConfigFixture()
        #expect(
            try fixture.load(ConfigFixture.minimal).configuration.amqp.consumerTimeout == .seconds(1800),
            "30m by default")
        #expect(try fixture.load(ConfigFixture.minimal + "amqp: {consumer_timeout: 0s}\n").otherWarnings.isEmpty)
        #expect(
            fixture.errors(ConfigFixture.minimal + "amqp: {consumer_timeout: 30s}\n") == [
                "DIR/config.yaml:10:26: amqp.consumer_timeout: expected 0s (the broker's own) or 1m to 24h, found 30s (RabbitMQ checks it once a minute)"
            ])
        #expect(fixture.errors(ConfigFixture.minimal + "amqp: {consumer_timeout: 25h}\n").count == 1)
        // 4 x 10s (the default provider timeout) + 25s (shutdown_deadline) = 1m5s.
        let warned = try fixture.load(ConfigFixture.minimal + "amqp: {consumer_timeout: 1m}\n").otherWarnings.map(
            \.description)
        #expect(
            warned.map { $0.replacingOccurrences(of: fixture.directory, with: "DIR") } == [
                "DIR/config.yaml:10:26: amqp.consumer_timeout: warning: 1m does not exceed the 1m5s Herald may hold an event"
                    + " (4 x the longest provider timeout + shutdown_deadline): the broker would take events back while they are being delivered"
            ])
        #expect(try fixture.load(ConfigFixture.minimal + "amqp: {consumer_timeout: 2m}\n").otherWarnings.isEmpty)
        #expect(
            try fixture.load(ConfigFixture.minimal + "amqp: {consumer_timeout: 2m}\nshutdown_deadline: 2m\n")
                .otherWarnings.count == 1)
    }

    @Test func unknownLogLevelListsTheLevels() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(ConfigFixture.minimal + "log: {level: verbose}\n") == [
                "DIR/config.yaml:10:14: log.level: unknown log level 'verbose' (expected one of: trace, debug, info, notice, warning, error, critical)"
            ])
    }

    @Test func httpEngineDefaultsToNghttp2AcceptsLibcurlAndNamesTheChoicesOtherwise() throws {
        let fixture = try ConfigFixture()
        let defaults = try fixture.load(ConfigFixture.minimal).configuration.apps["chat"]
        #expect(
            defaults?.section(APNsSettings.self)?.httpEngine == .nghttp2
                && defaults?.section(FCMSettings.self)?.httpEngine == .nghttp2)
        let chosen = try fixture.load(
            ConfigFixture.minimal.replacingOccurrences(
                of: "      topic: com.example.chat\n",
                with: "      topic: com.example.chat\n      http_engine: libcurl\n"))
        #expect(chosen.configuration.apps["chat"]?.section(APNsSettings.self)?.httpEngine == .libcurl)
        #expect(
            chosen.configuration.apps["chat"]?.section(FCMSettings.self)?.httpEngine == .nghttp2,
            "each section chooses its own")
        let errors = fixture.errors(
            ConfigFixture.minimal.replacingOccurrences(
                of: "      service_account_file: fcm.json\n",
                with: "      service_account_file: fcm.json\n      http_engine: curl\n"))
        #expect(errors.count == 1)
        #expect(
            errors.first?.contains(
                "apps.chat.fcm.http_engine: unknown http_engine 'curl' (expected nghttp2 or libcurl)") == true,
            "\(errors)")
    }

    @Test func connectionsAreANumberOrAutoAndIdleTimeoutIsADuration() throws {
        let fixture = try ConfigFixture()
        func with(apns: String = "", fcm: String = "") -> String {
            ConfigFixture.minimal
                .replacingOccurrences(
                    of: "      topic: com.example.chat\n", with: "      topic: com.example.chat\n" + apns
                )
                .replacingOccurrences(
                    of: "      service_account_file: fcm.json\n", with: "      service_account_file: fcm.json\n" + fcm)
        }
        let chosen = try fixture.load(
            with(apns: "      connections: 8\n      idle_timeout: 5m\n", fcm: "      connections: auto\n"))
        #expect(chosen.configuration.apps["chat"]?.section(APNsSettings.self)?.connections == .count(8))
        #expect(chosen.configuration.apps["chat"]?.section(APNsSettings.self)?.idleTimeout == .seconds(300))
        #expect(chosen.configuration.apps["chat"]?.section(FCMSettings.self)?.connections == .auto)
        #expect(
            ConnectionsSetting.count(8).maximum(automatic: 64) == 8
                && ConnectionsSetting.auto.maximum(automatic: 64) == 64)
        let word = fixture.errors(with(fcm: "      connections: many\n"))
        #expect(
            word.count == 1
                && word.first?.contains(
                    "apps.chat.fcm.connections: expected a number of connections or 'auto', found 'many'") == true,
            "\(word)")
        let range = fixture.errors(with(apns: "      connections: 0\n"))
        #expect(
            range.count == 1
                && range.first?.contains("apps.chat.apns.connections: expected a number from 1 to 64, found 0") == true,
            "\(range)")
        let idle = fixture.errors(with(fcm: "      idle_timeout: 0s\n"))
        #expect(
            idle.count == 1
                && idle.first?.contains("apps.chat.fcm.idle_timeout: an idle timeout must be above 0") == true,
            "\(idle)")
    }

    @Test func durationsParseAndPrint() {
        #expect(ConfigDuration(parsing: "1h30m")?.milliseconds == 5_400_000)
        #expect(ConfigDuration(parsing: "250ms")?.milliseconds == 250)
        #expect(ConfigDuration(parsing: "90s")?.description == "1m30s")
        #expect(ConfigDuration(parsing: "5") == nil)
        #expect(ConfigDuration(parsing: "5x") == nil)
        #expect(ConfigDuration(parsing: "") == nil)
        #expect(ConfigDuration(parsing: "-5s") == nil)
        #expect(RetrySettings().delay(after: 1) == .seconds(5))
        #expect(RetrySettings().delay(after: 9) == .seconds(600))
    }
}
