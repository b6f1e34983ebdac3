import Testing
import HeraldYAML

/// A duration like `5s` or `2m`, as a config type in another module would write it.
struct Seconds: Decodable, Equatable {
    var value: Int
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        let units = ["s": 1, "m": 60, "h": 3600]
        guard let unit = text.last.flatMap({ units[String($0)] }), let amount = Int(text.dropLast()) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "invalid duration '\(text)' (expected a number followed by s, m or h)")
        }
        value = amount * unit
    }
}

@Suite struct CustomTypeErrorTests {
    struct Retry: Decodable { var max_attempts: Int; var delays: [Seconds] }
    struct Config: Decodable { var retry: Retry }

    @Test func customTypeDecodes() throws {
        let config = try decode(Config.self, "retry: {max_attempts: 5, delays: [5s, 30s, 2m]}")
        #expect(config.retry.delays.map(\.value) == [5, 30, 120])
    }

    @Test func dataCorruptedFromACustomTypeIsPositioned() {
        #expect(
            errorText(
                Config.self,
                """
                retry:
                  max_attempts: 5
                  delays: [5s, 30x, 2m]
                """)
                == "config.yaml:3:16: retry.delays[1]: invalid duration '30x' (expected a number followed by s, m or h)"
        )
    }

    @Test func keyedDataCorruptedPointsAtTheKeyItNames() {
        struct Port: Decodable {
            enum Keys: String, CodingKey { case port }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                let port = try container.decode(Int.self, forKey: .port)
                guard port < 65536 else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .port, in: container, debugDescription: "port \(port) is above 65535")
                }
            }
        }
        #expect(
            errorText([String: Port].self, "http:\n  port: 70000")
                == "config.yaml:2:9: http.port: port 70000 is above 65535")
    }

    @Test func anyOtherErrorShowsItsDescription() {
        struct Failure: Error, CustomStringConvertible {
            var description: String { "listen address must be host:port" }
        }
        struct Listen: Decodable {
            init(from decoder: any Decoder) throws { throw Failure() }
        }
        #expect(
            errorText([String: Listen].self, "http: 9464") == "config.yaml:1:7: http: listen address must be host:port")
    }

    enum Environment: String, Decodable, CaseIterable { case production, sandbox }
    struct APNS: Decodable { var environment: Environment }

    @Test func caseIterableEnumListsItsValues() {
        #expect(
            errorText(APNS.self, "environment: prodution")
                == "config.yaml:1:14: environment: unknown value 'prodution' (did you mean 'production'?)")
        #expect(
            errorText(APNS.self, "environment: staging")
                == "config.yaml:1:14: environment: unknown value 'staging' (expected one of: production, sandbox)")
    }

    @Test func plainRawValueEnumKeepsTheStandardLibraryMessage() {
        enum Level: String, Decodable { case info, debug }
        #expect(
            errorText([String: Level].self, "level: loud")
                == "config.yaml:1:8: level: Cannot initialize Level from invalid String value loud")
    }

    @Test func errorsFromTheDocumentAPIPassThroughUnchanged() throws {
        let doc = try load("a: 1")
        struct Thrower: Decodable {
            init(from decoder: any Decoder) throws {
                throw YAMLError(file: "other.yaml", line: 9, column: 9, message: "as thrown")
            }
        }
        #expect(throws: YAMLError(file: "other.yaml", line: 9, column: 9, message: "as thrown")) {
            try doc.decode(Thrower.self)
        }
    }
}
