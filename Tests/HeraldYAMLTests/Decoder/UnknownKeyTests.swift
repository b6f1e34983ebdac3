import Testing
import HeraldYAML

@Suite struct UnknownKeyTests {
    struct AMQP: Decodable {
        var url: String
        var prefetch: Int?
        var queue: String?
    }

    struct Config: Decodable { var amqp: AMQP }

    @Test func typoGetsADidYouMean() {
        #expect(
            errorText(
                Config.self,
                """
                amqp:
                  url: x
                  prefech: 10
                """) == "config.yaml:3:3: amqp.prefech: unknown key 'prefech' (did you mean 'prefetch'?)")
    }

    @Test func farOffKeyListsTheValidKeys() {
        #expect(
            errorText(
                Config.self,
                """
                amqp:
                  url: x
                  colour: blue
                """) == "config.yaml:3:3: amqp.colour: unknown key 'colour' (expected one of: url, prefetch, queue)")
    }

    @Test func typoOfARequiredKeyIsReportedAsTheTypoNotAsMissing() {
        #expect(
            errorText(Config.self, "amqp:\n  ulr: x\n")
                == "config.yaml:2:3: amqp.ulr: unknown key 'ulr' (did you mean 'url'?)")
    }

    @Test func missingKeyWithUnrelatedUnknownKeyReportsTheMissingKey() {
        #expect(errorText(Config.self, "amqp:\n  zzz: x\n") == "config.yaml:2:3: amqp: missing required key 'url'")
    }

    @Test func unknownKeyAtTheRootHasNoKeyPathPrefix() {
        #expect(
            errorText(Config.self, "amqp: {url: x}\nampq: {}\n")
                == "config.yaml:2:1: ampq: unknown key 'ampq' (did you mean 'amqp'?)")
    }

    @Test func firstUnknownKeyInSourceOrderIsReported() {
        #expect(
            errorText(Config.self, "amqp: {url: x, b: 1, a: 2}")
                == "config.yaml:1:16: amqp.b: unknown key 'b' (expected one of: url, prefetch, queue)")
    }

    struct Match: Decodable { var routing_key: String?; var headers: [String: String]? }
    struct Route: Decodable { var name: String; var match: Match }
    struct Routing: Decodable { var routes: [Route] }

    @Test func unknownKeyAtDepthThreeInsideAnArrayOfStructs() {
        #expect(
            errorText(
                Routing.self,
                """
                routes:
                  - name: a
                    match: {routing_key: "a.#"}
                  - name: b
                    match:
                      routing_kye: "b.*"
                """)
                == "config.yaml:6:7: routes[1].match.routing_kye: unknown key 'routing_kye' (did you mean 'routing_key'?)"
        )
    }

    @Test func unknownKeyInsideADictionaryOfStructs() {
        struct Apps: Decodable { var apps: [String: AMQP] }
        #expect(
            errorText(
                Apps.self,
                """
                apps:
                  chat: {url: a}
                  news: {url: b, queu: q}
                """) == "config.yaml:3:18: apps.news.queu: unknown key 'queu' (did you mean 'queue'?)")
    }

    @Test func mergedUnknownKeyIsReportedWhereItIsWritten() {
        struct Anchored: Decodable { var base: YAMLNode; var amqp: AMQP }
        #expect(
            errorText(
                Anchored.self,
                """
                base: &base {url: x, prefetsh: 1}
                amqp:
                  <<: *base
                """) == "config.yaml:1:22: amqp.prefetsh: unknown key 'prefetsh' (did you mean 'prefetch'?)")
    }

    @Test func nestedUnknownKeysAreReportedBeforeTheirParentsOnes() {
        #expect(
            errorText(Config.self, "extra: 1\namqp: {url: x, queeu: q}")
                == "config.yaml:2:16: amqp.queeu: unknown key 'queeu' (did you mean 'queue'?)")
    }

    @Test func typeThatIgnoresTheMappingAcceptsAnyKeys() throws {
        struct Loose: Decodable { var value: YAMLNode }
        #expect(try decode(Loose.self, "value: {anything: 1}").value["anything"]?.scalar?.value == "1")
    }

    @Test func failedAlternativeDoesNotLeakUnknownKeys() throws {
        enum Target: Decodable, Equatable {
            case token(String), topic(String)
            struct TokenForm: Decodable { var token: String }
            struct TopicForm: Decodable { var topic: String }
            init(from decoder: any Decoder) throws {
                if let form = try? TokenForm(from: decoder) {
                    self = .token(form.token)
                } else {
                    self = .topic(try TopicForm(from: decoder).topic)
                }
            }
        }
        #expect(try decode([Target].self, "[{token: a}, {topic: b}]") == [.token("a"), .topic("b")])
    }

    enum Action: Decodable { case drop(reason: String), app(name: String) }

    @Test func misspeltEnumCaseIsAnUnknownKey() {
        #expect(errorText(Action.self, "dorp: {reason: x}") == "config.yaml:1:1: dorp: unknown key 'dorp'")
        #expect(
            errorText(Action.self, "drop: {reasn: x}")
                == "config.yaml:1:8: drop.reasn: unknown key 'reasn' (did you mean 'reason'?)")
    }
}
