import Testing
@testable import HeraldYAML

@Suite struct ScalarStyleTests {
    @Test func everyScalarStyleIsRecordedWithItsValue() throws {
        let doc = try load(
            """
            plain: hello world
            single: 'it''s'
            double: "tab\\there \\u00e9"
            literal: |
              line one
              line two
            folded: >
              folded
              text
            """)
        let styles = doc.root.mapping?.map { $0.value.scalar?.style }
        #expect(styles == [.plain, .singleQuoted, .doubleQuoted, .literal, .folded])
        #expect(doc.root.value("plain") == "hello world")
        #expect(doc.root.value("single") == "it's")
        #expect(doc.root.value("double") == "tab\there é")
        #expect(doc.root.value("literal") == "line one\nline two\n")
        #expect(doc.root.value("folded") == "folded text")  // clip: the text ends without a newline
    }

    @Test func chompingIndicatorsStripOrKeepTrailingNewlines() throws {
        let doc = try load(
            """
            strip: |-
              text

            keep: |+
              text

            clip: >
              a

              b
            end: x
            """)
        #expect(doc.root.value("strip") == "text")
        #expect(doc.root.value("keep") == "text\n\n")
        #expect(doc.root.value("clip") == "a\nb\n")
    }

    @Test func commentsAreIgnoredAndHashInsideValuesIsKept() throws {
        let doc = try load(
            """
            # leading comment
            url: http://host/#anchor   # trailing comment
            quoted: "# not a comment"
            """)
        #expect(doc.root.mapping?.count == 2)
        #expect(doc.root.value("url") == "http://host/#anchor")
        #expect(doc.root.value("quoted") == "# not a comment")
    }

    @Test func blockAndFlowCollectionsLoadAlike() throws {
        let block = try load(
            """
            bindings:
              - "#"
              - a.b
            match:
              routing_key: x
            """)
        let flow = try load(##"{bindings: ["#", a.b], match: {routing_key: x}}"##)
        #expect(block.root.mapping?.map(\.key) == ["bindings", "match"])
        #expect(block.root["bindings"]?.sequence?.compactMap(\.scalar?.value) == ["#", "a.b"])
        #expect(flow.root["bindings"]?.sequence?.compactMap(\.scalar?.value) == ["#", "a.b"])
        #expect(flow.root.value("match", "routing_key") == "x")
    }

    @Test func everyNodeCarriesItsOneBasedStartMark() throws {
        let doc = try load(
            """
            amqp:
              url: "amqp://x"
              bindings: [a, b]
            """)
        #expect(doc.root.mark == YAMLMark(line: 1, column: 1))
        let amqp = try #require(doc.root.mapping?.first)
        #expect(amqp.keyMark == YAMLMark(line: 1, column: 1))
        #expect(amqp.value.mark == YAMLMark(line: 2, column: 3))
        #expect(amqp.value["url"]?.mark == YAMLMark(line: 2, column: 8))
        #expect(amqp.value["bindings"]?.sequence?.last?.mark == YAMLMark(line: 3, column: 17))
    }

    @Test func explicitTagsAreKept() throws {
        let doc = try load("port: !!str 8080")
        #expect(doc.root["port"]?.scalar == YAMLScalar(value: "8080", style: .plain, tag: "tag:yaml.org,2002:str"))
    }
}
