import HeraldCore
import Testing
import HeraldYAML

@Suite struct PositionTests {
    let text = """
        routes:
          - name: a
            app: chat
          - name: b
            app: chatt
        """

    @Test func markAtACodingPathFindsTheValue() throws {
        let doc = try load(text)
        let path: [any CodingKey] = [YAMLCodingKey("routes"), YAMLCodingKey(index: 1), YAMLCodingKey("app")]
        #expect(doc.mark(at: path) == YAMLMark(line: 5, column: 10))
        #expect(doc.mark(at: []) == YAMLMark(line: 1, column: 1))
    }

    @Test func markFallsBackToTheNearestExistingAncestor() throws {
        let doc = try load(text)
        #expect(
            doc.mark(at: [YAMLCodingKey("routes"), YAMLCodingKey(index: 1), YAMLCodingKey("rate")])
                == YAMLMark(line: 4, column: 5))
        #expect(doc.mark(at: [YAMLCodingKey("routes"), YAMLCodingKey(index: 9)]) == YAMLMark(line: 2, column: 3))
    }

    @Test func validatorErrorsArePositionedAndSuggested() throws {
        let doc = try load(text)
        let path: [any CodingKey] = [YAMLCodingKey("routes"), YAMLCodingKey(index: 1), YAMLCodingKey("app")]
        let hint = Suggestions.closest(to: "chatt", among: ["chat", "news"]).map { " (did you mean '\($0)'?)" } ?? ""
        #expect(
            doc.error(at: path, "unknown app 'chatt'" + hint).description
                == "config.yaml:5:10: routes[1].app: unknown app 'chatt' (did you mean 'chat'?)")
    }

    @Test func codingPathsCapturedDuringDecodingWorkWithMarks() throws {
        struct Route: Decodable {
            var appPath: [any CodingKey]
            enum CodingKeys: CodingKey { case app }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                _ = try container.decode(String.self, forKey: .app)
                appPath = container.codingPath + [CodingKeys.app]
            }
        }
        struct Routes: Decodable { var routes: [Route] }
        let doc = try load("routes:\n  - {app: x}\n  - {app: y}")
        let routes = try doc.decode(Routes.self)
        #expect(doc.error(at: routes.routes[1].appPath, "bad").description == "config.yaml:3:11: routes[1].app: bad")
    }

    @Test func suggestionNeedsACloseCandidate() {
        #expect(Suggestions.closest(to: "prefech", among: ["url", "prefetch"]) == "prefetch")
        #expect(Suggestions.closest(to: "Prefetch", among: ["prefetch"]) == "prefetch")
        #expect(Suggestions.closest(to: "ab", among: ["cd"]) == nil)
        #expect(Suggestions.closest(to: "colour", among: ["url", "queue"]) == nil)
        #expect(
            Suggestions.closest(to: "service_acount_file", among: ["service_account_json", "service_account_file"])
                == "service_account_file")
    }

    @Test func descriptionOmitsEmptyPartsAndRendersOddKeys() throws {
        #expect(
            YAMLError(file: "c.yaml", line: 0, column: 0, message: "file not found").description
                == "c.yaml: file not found")
        let doc = try load("headers:\n  x.priority: 1")
        #expect(
            doc.error(at: [YAMLCodingKey("headers"), YAMLCodingKey("x.priority")], "bad").description
                == #"config.yaml:2:15: headers["x.priority"]: bad"#)
    }
}
