/// The one rule for secrets written into URLs (`scheme://user:password@host/…`):
/// where Herald shows a URL (logs, `herald check`, errors) the password is
/// `***`, and URLs that must not carry credentials at all (provider
/// endpoints, a service account's `token_uri`) are told apart here.
///
/// The authority is read as `AMQPURL` reads it: up to the first `/` or `?`
/// (a `#` does not end it), the user info up to its last `@`, the password
/// from the user info's first `:`. So every password an AMQP URL can carry
/// is masked, including one holding an unescaped `@`, `:` or `#`.
public enum URLSecrets {
    /// The user-info part (`user:password`) of `url`'s authority, if it has one.
    public static func userInfo(of url: String) -> Substring? {
        guard let authority = authority(of: url), let at = authority.lastIndex(of: "@") else { return nil }
        return authority[..<at]
    }

    /// `url` with the password of its user info replaced by `***`
    /// (`amqp://herald:***@broker:5672/`); a URL without one is returned as is.
    ///
    /// A password holding an unescaped `/` or `?` ends the authority early,
    /// so no parser finds it (the URL is refused) and it would show; when the
    /// authority has no `@` but the URL has one later, everything from the
    /// authority's first `:` to the URL's last `@` is masked instead.
    public static func redacted(_ url: String) -> String {
        guard let authority = authority(of: url) else { return url }
        let end: String.Index
        if let info = userInfo(of: url) {
            end = info.endIndex
        } else if let at = url[authority.endIndex...].lastIndex(of: "@") {
            end = at
        } else {
            return url
        }
        guard let colon = url[authority.startIndex..<end].firstIndex(of: ":") else { return url }
        return String(url[...colon]) + "***" + String(url[end...])
    }

    /// The authority (`user:password@host:port`) between `://` and the path or query.
    private static func authority(of url: String) -> Substring? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        return rest[..<end]
    }
}
