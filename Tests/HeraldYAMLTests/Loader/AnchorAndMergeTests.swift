import Testing
import HeraldYAML

@Suite struct AnchorAndMergeTests {
    @Test func aliasResolvesToTheAnchoredNode() throws {
        let doc = try load(
            """
            base: &endpoint https://127.0.0.1:2197
            apns: {endpoint: *endpoint}
            list: &items [a, b]
            copy: *items
            """)
        #expect(doc.root.value("apns", "endpoint") == "https://127.0.0.1:2197")
        #expect(doc.root["copy"] == doc.root["list"])
    }

    @Test func unknownAliasIsAnError() {
        #expect(
            loadErrorText(
                """
                a: 1
                b: *nope
                """) == "config.yaml:2:4: b: unknown alias '*nope' (no anchor '&nope' is defined before it)")
    }

    @Test func aliasesOfAliasesPastTheNodeLimitAreAnErrorAtTheAliasThatCrossesIt() {
        let tens = { (name: String) in Array(repeating: "*" + name, count: 10).joined(separator: ", ") }
        let text = """
            a: &a [x, x, x, x, x, x, x, x, x, x]
            b: &b [\(tens("a"))]
            c: &c [\(tens("b"))]
            d: &d [\(tens("c"))]
            e: &e [\(tens("d"))]
            f: &f [\(tens("e"))]
            g: &g [\(tens("f"))]
            h: &h [\(tens("g"))]
            i: [\(tens("h"))]
            """
        // 12 348 nodes up to d; each *d then adds 11 111, so the 8th one in e crosses 100 000.
        #expect(
            loadErrorText(text) == "config.yaml:5:36: e[7]: the document grows past 100000 nodes at the alias '*d' "
                + "(11111 nodes each time it is used), counting every alias as the nodes it repeats; aliases of aliases multiply (an alias bomb?)"
        )
    }

    @Test func mergeKeyCopiesEntriesAndExplicitKeysWin() throws {
        let doc = try load(
            """
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
        let doc = try load(
            """
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
        #expect(
            loadErrorText(
                """
                a:
                  <<: oops
                """)
                == #"config.yaml:2:7: a["<<"]: the merge key '<<' expects a mapping or a sequence of mappings, found 'oops'"#
        )
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let doc = try load(#"a: {"<<": {x: 1}}"#)
        #expect(doc.root["a"]?.mapping?.map(\.key) == ["<<"])
    }
}
