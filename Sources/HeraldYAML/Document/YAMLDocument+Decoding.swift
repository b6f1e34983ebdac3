extension YAMLDocument {
    /// Decodes a `Decodable` type from the whole document. Every failure —
    /// malformed values, unknown or missing keys, errors thrown by the type's
    /// own `init(from:)` — comes out as a positioned `YAMLError`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, userInfo: [CodingUserInfoKey: Any] = [:]) throws(YAMLError) -> T {
        let session = DecodingSession(file: file, userInfo: userInfo)
        return try session.decode(type, from: root, at: [])
    }
}
