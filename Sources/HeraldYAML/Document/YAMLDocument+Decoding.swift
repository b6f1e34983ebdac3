extension YAMLDocument {
    /// Decodes a `Decodable` type from the whole document. Every failure —
    /// malformed values, unknown or missing keys, errors thrown by the type's
    /// own `init(from:)` — comes out as a positioned `YAMLError`: the first
    /// one decoding meets.
    public func decode<T: Decodable>(_ type: T.Type = T.self, userInfo: [CodingUserInfoKey: Any] = [:])
        throws(YAMLError) -> T
    {
        let session = DecodingSession(file: file, userInfo: userInfo, collectsErrors: false)
        return try session.decode(type, from: root, at: [])
    }

    /// Decodes like `decode`, but goes on after the errors it can go on
    /// after, so one run reports them all: an unknown key is left out, and an
    /// optional value (`decodeIfPresent`) that fails to decode is nil, so the
    /// type's default applies. An error recorded inside an alternative that
    /// a type's `init(from:)` tries with `try?` and then drops stays recorded,
    /// so such types should try single values, which throw rather than record.
    /// - Returns: the value and the errors, sorted by position; `errors` is
    ///   empty when the document decoded cleanly.
    /// - Throws: `YAMLDecodingErrors` when no value could be made (a missing
    ///   required key, a required value that failed), with every error
    ///   recorded before, that one included.
    public func decodeCollectingErrors<T: Decodable>(
        _ type: T.Type = T.self, userInfo: [CodingUserInfoKey: Any] = [:]
    ) throws(YAMLDecodingErrors) -> YAMLDecodingResult<T> {
        let session = DecodingSession(file: file, userInfo: userInfo, collectsErrors: true)
        do {
            let value = try session.decode(type, from: root, at: [])
            return YAMLDecodingResult(value: value, collected: session.collected)
        } catch {
            throw YAMLDecodingErrors(errors: session.collected.map(\.error) + [error])
        }
    }
}
