import HeraldCore

/// `connections:` of an `apns:` or `fcm:` section: the most HTTP/2
/// connections Herald opens to the provider's host. Connections open only
/// while every open one is full and requests wait, so a number is a ceiling,
/// never a pool kept open; `auto` (the default) leaves the count to the
/// requests in flight and the provider's stream limit (docs/configuration.md,
/// "Connections at a distance").
public enum ConnectionsSetting: Sendable, Equatable {
    case auto
    case count(Int)

    /// Decodes `key` of `container` if present: a number, or `auto`.
    public static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws
        -> ConnectionsSetting
    {
        guard container.contains(key) else { return .auto }
        if let count = try? container.decode(Int.self, forKey: key) { return .count(count) }
        let word = try? container.decode(String.self, forKey: key)
        guard word == "auto" else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [key],
                    debugDescription:
                        "expected a number of connections or 'auto'\(word.map { ", found '\($0.truncatedForMessage)'" } ?? "")"
                ))
        }
        return .auto
    }

    /// The connection ceiling: the number, or `automatic` for `auto`.
    public func maximum(automatic: Int) -> Int {
        switch self {
        case .auto: automatic
        case .count(let count): count
        }
    }
}
