import Testing
import HeraldYAML

@Suite struct AnchorAndMergeTests {
    @Test func aliasResolvesToTheAnchoredNode() throws {
        let doc = try load("""
            base: &endpoint https://127.0.0.1:2197
            apns: {endpoint: *endpoint}
            list: &items [a, b]
            copy: *items
            """)
        #expect(doc.root.value("apns", "endpoint") == "https://127.0.0.1:2197")
        #expect(doc.root["copy"] == doc.root["list"])
    }

    @Test func unknownAliasIsAnError() {
        #expect(loadErrorText("""
            a: 1
            b: *nope
            """) == "config.yaml:2:4: b: unknown alias '*nope' (no anchor '&nope' is defined before it)")
    }

    @Test func mergeKeyCopiesEntriesAndExplicitKeysWin() throws {
        let doc = try load("""
            defaults: &defaults
              priority: normal
              ttl: 60
            route:
              <<: *defaults
              ttl: 120
            """)
        let route = try #require(doc.root["route"]?.mapping)
        #expect(route.map(\.key) == ["priority", "ttl"])
        #expect(doc.root.value("route", "ttl") == "120")
        #expect(doc.root.value("route", "priority") == "normal")
    }

    @Test func mergeOfAListGivesEarlierMappingsPriority() throws {
        let doc = try load("""
            a: &a {x: 1, y: 1}
            b: &b {y: 2, z: 2}
            c:
              <<: [*a, *b]
              z: 3
            """)
        #expect(doc.root["c"]?.mapping?.map(\.key) == ["x", "y", "z"])
        #expect(doc.root.value("c", "y") == "1")
        #expect(doc.root.value("c", "z") == "3")
    }

    @Test func mergeOfAScalarIsAnError() {
        #expect(loadErrorText("""
            a:
              <<: oops
            """) == #"config.yaml:2:7: a["<<"]: the merge key '<<' expects a mapping or a sequence of mappings, found 'oops'"#)
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let doc = try load(#"a: {"<<": {x: 1}}"#)
        #expect(doc.root["a"]?.mapping?.map(\.key) == ["<<"])
    }
}
