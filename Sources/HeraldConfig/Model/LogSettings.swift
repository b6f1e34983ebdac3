import HeraldCore

/// The `log:` section: level and line format of Herald's logs on stderr.
public struct LogSettings: Sendable, Equatable, Decodable {
    public var level: LogLevel
    public var format: LogFormat

    public init(level: LogLevel = .info, format: LogFormat = .json) {
        self.level = level
        self.format = format
    }

    enum CodingKeys: String, CodingKey { case level, format }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        level = .info
        format = .json
        if let name = try c.decodeIfPresent(String.self, forKey: .level) {
            guard let parsed = LogLevel(name: name) else {
                let names = LogLevel.allCases.map(\.description).joined(separator: ", ")
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: c.codingPath + [CodingKeys.level],
                        debugDescription: "unknown log level '\(name.truncatedForMessage)' (expected one of: \(names))")
                )
            }
            level = parsed
        }
        if let name = try c.decodeIfPresent(String.self, forKey: .format) {
            guard let parsed = LogFormat(rawValue: name) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: c.codingPath + [CodingKeys.format],
                        debugDescription: "unknown log format '\(name.truncatedForMessage)' (expected json or logfmt)"))
            }
            format = parsed
        }
    }
}
