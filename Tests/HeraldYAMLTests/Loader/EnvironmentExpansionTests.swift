import Testing
import HeraldYAML

@Suite struct EnvironmentExpansionTests {
    let environment = ["APNS_TEAM_ID": "TEAM123", "EMPTY": "", "PREFETCH": "64"]

    @Test func setVariableIsSubstituted() throws {
        let doc = try load("team_id: ${APNS_TEAM_ID}\nurl: https://${APNS_TEAM_ID}.example/x", environment: environment)
        #expect(doc.root.value("team_id") == "TEAM123")
        #expect(doc.root.value("url") == "https://TEAM123.example/x")
    }

    @Test func unsetVariableTakesItsDefault() throws {
        let doc = try load("url: ${HERALD_AMQP_URL:-amqp://guest:guest@127.0.0.1:5672/%2f}", environment: environment)
        #expect(doc.root.value("url") == "amqp://guest:guest@127.0.0.1:5672/%2f")
    }

    @Test func emptyVariableTakesTheDefaultLikeTheShell() throws {
        let doc = try load("a: ${EMPTY:-fallback}\nb: x${EMPTY}y", environment: environment)
        #expect(doc.root.value("a") == "fallback")
        #expect(doc.root.value("b") == "xy")
    }

    @Test func emptyDefaultGivesAnEmptyValue() throws {
        let doc = try load("a: \"${NOPE:-}\"", environment: environment)
        #expect(doc.root.value("a") == "")
    }

    @Test func unsetVariableWithoutDefaultIsAnErrorAtTheReference() {
        #expect(
            loadErrorText(
                """
                apps:
                  chat:
                    apns:
                      team_id: ${APNS_TEAM}
                """, environment: environment)
                == "config.yaml:4:16: apps.chat.apns.team_id: environment variable APNS_TEAM is not set (use ${APNS_TEAM:-default} for a default)"
        )
        #expect(
            loadErrorText("key: \"prefix-${MISSING}\"")
                == "config.yaml:1:14: key: environment variable MISSING is not set (use ${MISSING:-default} for a default)"
        )
    }

    @Test func doubleDollarBraceIsALiteral() throws {
        let doc = try load("a: $${NOT_A_VAR} costs $5", environment: environment)
        #expect(doc.root.value("a") == "${NOT_A_VAR} costs $5")
    }

    @Test func unterminatedReferenceIsAnError() {
        #expect(loadErrorText("a: x ${OOPS") == "config.yaml:1:6: a: unterminated '${' (expected '}' to close it)")
    }

    @Test func invalidReferenceIsAnError() {
        #expect(
            loadErrorText("a: ${1BAD}")
                == "config.yaml:1:4: a: invalid environment reference '${1BAD}' (expected ${NAME} or ${NAME:-default})")
    }

    @Test func keysAreNotExpanded() throws {
        let doc = try load("${KEY}: 1")
        #expect(doc.root.mapping?.first?.key == "${KEY}")
    }

    @Test func expansionHappensBeforeTypeConversion() throws {
        struct AMQP: Decodable { var prefetch: Int; var heartbeat: Int }
        let amqp = try decode(
            AMQP.self, "prefetch: ${PREFETCH:-256}\nheartbeat: ${HEARTBEAT:-30}", environment: environment)
        #expect(amqp.prefetch == 64)
        #expect(amqp.heartbeat == 30)
    }

    @Test func positionFallsBackToTheScalarWhenTextIsFolded() {
        #expect(
            loadErrorText(
                """
                a: >
                  first line
                  then ${GONE}
                """) == "config.yaml:1:4: a: environment variable GONE is not set (use ${GONE:-default} for a default)")
    }
}
