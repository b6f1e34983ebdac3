/// The one rule for secrets written into URLs (`scheme://user:password@host/…`):
/// where Herald shows a URL (logs, `herald check`, errors) the password is
/// `***`, and URLs that must not carry credentials at all (provider
/// endpoints, a service account's `token_uri`) are told apart here.
public enum URLSecrets {
    /// The user-info part (`user:password`) of `url`'s authority, if it has one.
    public static func userInfo(of url: String) -> Substring? {
        guard let authority = authority(of: url), let at = authority.lastIndex(of: "@") else { return nil }
        return authority[..<at]
    }

    /// `url` with the password of its user info replaced by `***`
    /// (`amqp://herald:***@broker:5672/`); a URL without one is returned as is.
    public static func redacted(_ url: String) -> String {
        guard let info = userInfo(of: url), let colon = info.firstIndex(of: ":") else { return url }
        let password = info.index(after: colon)..<info.endIndex
        return String(url[..<password.lowerBound]) + "***" + String(url[password.upperBound...])
    }

    /// The authority (`user:password@host:port`) between `://` and the path, query or fragment.
    private static func authority(of url: String) -> Substring? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return rest[..<end]
    }
}
