import Testing
import HeraldYAML

@Suite struct ContainerDecodingTests {
    struct Route: Decodable, Equatable {
        var name: String
        var match: [String: String]
        var tags: [String]?
    }

    struct Config: Decodable {
        var routes: [Route]
        var limits: [String: Int]
    }

    @Test func arraysDictionariesAndOptionalsDecode() throws {
        let config = try decode(
            Config.self,
            """
            routes:
              - name: quiet
                match: {routing_key: "marketing.#"}
                tags: [a, b]
              - name: default
                match: {}
            limits: {chat: 10, news: 0x20}
            """)
        #expect(
            config.routes == [
                Route(name: "quiet", match: ["routing_key": "marketing.#"], tags: ["a", "b"]),
                Route(name: "default", match: [:], tags: nil),
            ])
        #expect(config.limits == ["chat": 10, "news": 32])
    }

    @Test func wrongCollectionKindIsATypeError() {
        #expect(
            errorText(Config.self, "routes: {a: 1}\nlimits: {}")
                == "config.yaml:1:9: routes: expected a sequence, found a mapping")
        #expect(
            errorText(Config.self, "routes: []\nlimits: [1]")
                == "config.yaml:2:9: limits: expected a mapping, found a sequence")
        #expect(errorText(Config.self, "just text") == "config.yaml:1:1: expected a mapping, found 'just text'")
    }

    @Test func missingRequiredKeyIsReportedAtTheMapping() {
        #expect(
            errorText(
                Config.self,
                """
                routes:
                  - name: a
                    match: {}
                  - match: {}
                limits: {}
                """) == "config.yaml:4:5: routes[1]: missing required key 'name'")
    }

    @Test func nestedContainersAndSuperDecoderWork() throws {
        struct Base: Decodable { var id: Int }
        struct Custom: Decodable {
            var host: String
            var port: Int
            var items: [Int]
            var base: Base

            enum Keys: String, CodingKey { case endpoint, items, `super` }
            enum EndpointKeys: String, CodingKey { case host, port }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                let endpoint = try container.nestedContainer(keyedBy: EndpointKeys.self, forKey: .endpoint)
                host = try endpoint.decode(String.self, forKey: .host)
                port = try endpoint.decode(Int.self, forKey: .port)
                var list = try container.nestedUnkeyedContainer(forKey: .items)
                var items: [Int] = []
                while !list.isAtEnd { items.append(try list.decode(Int.self)) }
                self.items = items
                base = try Base(from: container.superDecoder())
            }
        }
        let value = try decode(
            Custom.self,
            """
            endpoint: {host: example.org, port: 443}
            items: [1, 2, 3]
            super: {id: 7}
            """)
        #expect(value.host == "example.org")
        #expect(value.port == 443)
        #expect(value.items == [1, 2, 3])
        #expect(value.base.id == 7)
    }

    @Test func unknownKeyInNestedContainerIsReported() {
        struct Custom: Decodable {
            enum Keys: String, CodingKey { case endpoint }
            enum EndpointKeys: String, CodingKey { case host }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                _ = try container.nestedContainer(keyedBy: EndpointKeys.self, forKey: .endpoint).decode(
                    String.self, forKey: .host)
            }
        }
        #expect(
            errorText(Custom.self, "endpoint:\n  host: a\n  hots: b")
                == "config.yaml:3:3: endpoint.hots: unknown key 'hots' (did you mean 'host'?)")
    }

    @Test func unkeyedContainerReportsRunningOutOfItems() {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                _ = try list.decode(Int.self)
                _ = try list.decode(Int.self)
            }
        }
        #expect(errorText([String: Pair].self, "p: [1]") == "config.yaml:1:4: p: expected at least 2 items, found 1")
        #expect(errorText([String: Pair].self, "p: [1, x]") == "config.yaml:1:8: p[1]: expected an integer, found 'x'")
    }

    @Test func anyYAMLValueCanBeCapturedAsANode() throws {
        struct Rule: Decodable { var name: String; var set: YAMLNode; var extra: YAMLNode? }
        let rule = try decode(Rule.self, "name: r\nset: {priority: normal, ttl: 60}\nextra: ~")
        #expect(rule.set.mapping?.map(\.key) == ["priority", "ttl"])
        #expect(rule.set.mark == YAMLMark(line: 2, column: 6))
        #expect(rule.extra == nil)
    }

    @Test func userInfoReachesTheDecoder() throws {
        struct Probe: Decodable {
            var seen: String?
            init(from decoder: any Decoder) throws {
                seen = decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] as? String
            }
        }
        let doc = try load("a: 1")
        let probe = try doc.decode(Probe.self, userInfo: [CodingUserInfoKey(rawValue: "k")!: "v"])
        #expect(probe.seen == "v")
    }
}
