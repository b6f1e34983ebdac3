import Testing
import HeraldYAML

@Suite struct DocumentStructureTests {
    @Test func emptyTextIsAnEmptyDocument() {
        #expect(loadErrorText("") == "config.yaml:1:1: empty document (expected a mapping of settings)")
        #expect(
            loadErrorText("# only a comment\n") == "config.yaml:1:1: empty document (expected a mapping of settings)")
    }

    @Test func secondDocumentIsAnError() {
        #expect(
            loadErrorText(
                """
                a: 1
                ---
                b: 2
                """)
                == "config.yaml:2:1: a second document starts here (expected exactly one document; remove the '---' or split the file)"
        )
    }

    @Test func explicitSingleDocumentMarkersAreAccepted() throws {
        let doc = try load("---\na: 1\n...\n")
        #expect(doc.root.value("a") == "1")
    }

    @Test func duplicateKeyNamesBothLines() {
        #expect(
            loadErrorText(
                """
                amqp:
                  url: a
                  prefetch: 1
                  url: b
                """) == "config.yaml:4:3: amqp.url: duplicate key 'url' (first defined at line 2, column 3)")
    }

    @Test func syntaxErrorReportsLibyamlProblemAndPosition() {
        #expect(
            loadErrorText(
                """
                amqp:
                  url: a
                 prefetch: 1
                """)
                == "config.yaml:3:2: invalid YAML: did not find expected key (while parsing a block mapping at line 1, column 1)"
        )
        #expect(
            loadErrorText("a: b: c") == "config.yaml:1:5: invalid YAML: mapping values are not allowed in this context")
        #expect(
            loadErrorText("a: [1, 2")
                == "config.yaml:2:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"
        )
    }

    @Test func controlCharacterIsAReaderErrorWithItsPosition() {
        #expect(
            loadErrorText("a: 1\nb: x\u{01}y\n")
                == "config.yaml:2:5: invalid YAML: control characters are not allowed (found U+1)")
    }

    @Test func nonScalarKeyIsAnError() {
        #expect(loadErrorText("? [a, b]\n: 1\n") == "config.yaml:1:3: a mapping key must be a scalar, found a sequence")
    }

    @Test func excessiveNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(loadErrorText(text).hasPrefix("config.yaml:1:257: "))
        #expect(loadErrorText(text).hasSuffix(": nesting deeper than 256 levels"))
    }
}
