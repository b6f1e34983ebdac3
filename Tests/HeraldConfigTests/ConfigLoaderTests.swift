import HeraldFCM
import HeraldAPNs
import Foundation
import HeraldConfig
import HeraldCore
import Testing

@Suite struct ConfigLoaderTests {
    @Test func minimalConfigGetsDesignDefaults() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(ConfigFixture.minimal)
        let c = loaded.configuration
        #expect(c.amqp.url == "amqp://guest:guest@127.0.0.1:5672/%2f")
        #expect(c.amqp.prefetch == 1024, "enough events in flight for providers 100 ms away (docs/scaling.md)")
        #expect(c.amqp.concurrency == 1024)
        #expect(c.amqp.effectiveConcurrency == 1024)
        #expect(c.amqp.ackDelay == ConfigDuration(milliseconds: 5))
        #expect(c.amqp.queueType == .quorum)
        #expect(c.amqp.bindings == ["#"])
        #expect(c.amqp.resultsExchange == "herald.results")
        #expect(c.retry.maxAttempts == 5)
        #expect(c.retry.delays.map(\.description) == ["5s", "30s", "2m", "10m"])
        #expect(c.outcomes.publish == ["invalid_token", "failed", "rejected"])
        #expect(c.http.listen == "127.0.0.1:9464")
        #expect(c.log == LogSettings(level: .info, format: .json))
        let apns = try #require(c.apps["chat"]?.section(APNsSettings.self))
        #expect(apns.auth == .keyFile(path: "apns.p8", teamID: "ABCDE12345", keyID: "KEY1234567"))
        #expect(apns.environment == .production)
        #expect(apns.baseURL == "https://api.push.apple.com")
        #expect(apns.connections == .auto && c.apps["chat"]?.section(FCMSettings.self)?.connections == .auto)
        #expect(apns.idleTimeout == .seconds(60))
        #expect(c.apps["chat"]?.section(FCMSettings.self)?.baseURL == "https://fcm.googleapis.com")
        #expect(loaded.resolve("apns.p8") == fixture.directory + "/apns.p8")
        #expect(loaded.otherWarnings.isEmpty)
    }

    @Test func environmentVariablesExpandWithDefaults() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(
            ConfigFixture.minimal + """
                amqp:
                  url: ${AMQP_URL:-amqp://localhost}
                  prefetch: ${PREFETCH:-64}
                """, environment: ["PREFETCH": "512"])
        #expect(loaded.configuration.amqp.url == "amqp://localhost")
        #expect(loaded.configuration.amqp.prefetch == 512)
    }

    @Test func typoInAKeyIsReportedWithPositionAndSuggestion() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(
                ConfigFixture.minimal + """
                    amqp:
                      prefech: 10
                    """) == ["DIR/config.yaml:11:3: amqp.prefech: unknown key 'prefech' (did you mean 'prefetch'?)"])
    }

    /// An app's keys are the registered providers' sections and
    /// `timeout_retries`: a misspelt provider is an unknown key, named with
    /// the provider it is probably a typo of.
    @Test func aMisspeltProviderSectionIsAnUnknownKey() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors(
            """
            apps:
              chat:
                webpsh:
                  vapid: {private_key_pem: x, subject: "mailto:ops@example.com"}
                timeout_retrie: 2
            """)
        #expect(
            errors.contains("DIR/config.yaml:3:5: apps.chat.webpsh: unknown key 'webpsh' (did you mean 'webpush'?)"),
            "\(errors)")
        #expect(
            errors.contains(
                "DIR/config.yaml:5:5: apps.chat.timeout_retrie: unknown key 'timeout_retrie' (did you mean 'timeout_retries'?)"
            ),
            "\(errors)")
    }

    @Test func wrongTypeNamesExpectedAndFound() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors(ConfigFixture.minimal + "amqp:\n  prefetch: lots\n")
        #expect(errors.count == 1)
        #expect(errors[0].hasPrefix("DIR/config.yaml:11:13: amqp.prefetch: "))
        #expect(errors[0].contains("'lots'"))
    }

    @Test func missingRequiredKey() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors("apps:\n  chat:\n    apns:\n      key_file: apns.p8\n")
        #expect(errors.count == 1)
        #expect(errors[0].hasPrefix("DIR/config.yaml:4:7: apps.chat.apns: "))
        #expect(errors[0].contains("missing required key 'topic'"))
    }

    @Test func badDurationSaysHowToWriteOne() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(ConfigFixture.minimal + "retry:\n  delays: [5s, 30]\n") == [
                "DIR/config.yaml:11:16: retry.delays[1]: expected a duration like 500ms, 5s, 2m or 1h, found '30' (write 30s for seconds)"
            ])
        #expect(
            fixture.errors(ConfigFixture.minimal + "amqp:\n  heartbeat: 5 minutes\n") == [
                "DIR/config.yaml:11:14: amqp.heartbeat: expected a duration like 500ms, 5s, 2m or 1h, found '5 minutes'"
            ])
    }

    @Test func malformedYAMLNamesTheProblem() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors("apps:\n  chat: {apns: [\n")
        #expect(errors.count == 1)
        #expect(errors[0].hasPrefix("DIR/config.yaml:"))
    }

    @Test func unsetVariableWithoutDefaultIsAnError() throws {
        let fixture = try ConfigFixture()
        let errors = fixture.errors(ConfigFixture.minimal + "amqp:\n  url: ${HERALD_TEST_UNSET_URL}\n")
        #expect(
            errors == [
                "DIR/config.yaml:11:8: amqp.url: environment variable HERALD_TEST_UNSET_URL is not set (use ${HERALD_TEST_UNSET_URL:-default} for a default)"
            ])
    }

    @Test func missingFileIsAnError() {
        #expect(throws: ConfigError.self) { try ConfigLoader.load(file: "/nonexistent/herald.yaml", environment: [:]) }
    }

    @Test func decodingAndValidationProblemsAreReportedTogetherSortedByPosition() throws {
        let fixture = try ConfigFixture()
        let yaml =
            "retry: {max_attempts: five}\namqp:\n  prefech: 10\n"
            + ConfigFixture.minimal.replacingOccurrences(of: "key_file: apns.p8", with: "key_file: missing.p8")
        do {
            _ = try fixture.load(yaml)
            Issue.record("expected errors")
        } catch {
            #expect(
                error.description.replacingOccurrences(of: fixture.directory, with: "DIR") == """
                    DIR/config.yaml:1:23: retry.max_attempts: expected an integer, found 'five'
                    DIR/config.yaml:3:3: amqp.prefech: unknown key 'prefech' (did you mean 'prefetch'?)
                    DIR/config.yaml:9:17: apps.chat.apns.key_file: APNs key file 'DIR/missing.p8' does not exist
                    DIR/config.yaml: 3 errors
                    """)
        }
    }

    /// `set: {debug: true}` and `defaults: {debug: …}` reach the rule (docs/debug-trace.md).
    @Test func aRouteMaySetOrDefaultTheDebugTrace() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(
            ConfigFixture.minimal + """
                routes:
                  - name: trace-support
                    match: {routing_key: "support.#"}
                    set: {debug: true}
                  - name: quiet
                    defaults: {debug: false}
                """)
        #expect(loaded.router.rules.map(\.set.debug) == [true, nil])
        #expect(loaded.router.rules.map(\.defaults.debug) == [nil, false])
    }

    @Test func validationIssuesWhereDecodingFailedAreLeftOut() throws {
        let fixture = try ConfigFixture()
        // team_id of the wrong type decodes as absent; "token auth needs team_id" would describe that, not the file.
        let yaml = ConfigFixture.minimal.replacingOccurrences(of: "team_id: ABCDE12345", with: "team_id: [ABCDE12345]")
        #expect(
            fixture.errors(yaml) == [
                "DIR/config.yaml:4:16: apps.chat.apns.team_id: expected a string, found a sequence"
            ])
    }

    @Test func aMissingRequiredKeyStopsBeforeValidationButKeepsTheErrorsFoundBefore() throws {
        let fixture = try ConfigFixture()
        // No validation runs, so the missing key file is not reported.
        #expect(
            fixture.errors("amqp: {prefech: 10}\napps:\n  chat:\n    apns:\n      key_file: missing.p8\n") == [
                "DIR/config.yaml:1:8: amqp.prefech: unknown key 'prefech' (did you mean 'prefetch'?)",
                "DIR/config.yaml:5:7: apps.chat.apns: missing required key 'topic'",
            ])
    }

    @Test func reportListsEveryErrorThenACount() throws {
        let fixture = try ConfigFixture()
        do {
            _ = try fixture.load(ConfigFixture.minimal + "routes:\n  - name: a\n    app: nope\n  - name: a\n")
            Issue.record("expected errors")
        } catch {
            let report = error.description.replacingOccurrences(of: fixture.directory, with: "DIR")
            #expect(
                report == """
                    DIR/config.yaml:12:10: routes[0].app: unknown app 'nope' (apps: chat)
                    DIR/config.yaml:13:11: routes[1].name: route name 'a' is already used by routes[0]
                    DIR/config.yaml:13:5: routes[1]: warning: route 'a' can never match: route 'a' before it matches everything
                    DIR/config.yaml: 2 errors, 1 warning
                    """)
        }
    }
}
