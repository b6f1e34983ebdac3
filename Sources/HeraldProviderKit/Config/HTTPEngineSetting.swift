import HeraldCore
/// `http_engine:` of an `apns:` or `fcm:` section: the HTTP/2 client under
/// the provider. `nghttp2` (the default) is Herald's own client; `libcurl`
/// is the engine Herald shipped first, kept as a fallback (docs/http2.md).
public enum HTTPEngineSetting: String, Sendable, Equatable, CaseIterable {
    case nghttp2
    case libcurl

    /// Decodes `key` of `container` if present; an unknown name is an error naming the choices.
    public static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws
        -> HTTPEngineSetting
    {
        guard let name = try container.decodeIfPresent(String.self, forKey: key) else { return .nghttp2 }
        guard let engine = HTTPEngineSetting(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [key],
                    debugDescription: "unknown http_engine '\(name.truncatedForMessage)' (expected nghttp2 or libcurl)")
            )
        }
        return engine
    }
}
