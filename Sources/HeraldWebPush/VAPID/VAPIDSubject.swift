/// The contact a VAPID token names in its `sub` claim (RFC 8292 §2.1): a
/// `mailto:` address or an `https:` URL where the push service's operator
/// can reach the sender.
///
/// Checked when configured, because Apple's push service (Safari) answers
/// 403 BadJwtToken to a token whose subject is anything else, including a
/// bare address without `mailto:` and addresses or URLs on `localhost`,
/// while other push services accept them: the mistake would show only on
/// Apple devices, one send at a time.
public struct VAPIDSubject: Sendable, Equatable, CustomStringConvertible {
    public let value: String

    /// - Throws: `VAPIDError.invalidSubject` saying what is wrong.
    public init(_ value: String) throws(VAPIDError) {
        let shown = "\"\(value)\""
        if value.hasPrefix("mailto:") {
            let address = value.dropFirst("mailto:".count)
            guard !address.isEmpty else { throw .invalidSubject("\(shown) has no address after mailto:") }
            guard
                address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }
                )
            else {
                throw .invalidSubject("\(shown) must be mailto: directly followed by an address, without spaces or <>")
            }
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[0].hasPrefix("mailto:"), !parts[1].isEmpty else {
                throw .invalidSubject("\(shown) is not mailto:name@domain.example")
            }
            let domain = parts[1].lowercased()
            if Self.isLocal(domain) {
                throw .invalidSubject("\(shown) names a local domain, which Apple's push service refuses (BadJwtToken)")
            }
            guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else {
                throw .invalidSubject("\(shown) is not mailto:name@domain.example")
            }
        } else if value.hasPrefix("https:") {
            let url: HTTPSURL
            do { url = try HTTPSURL(parsing: value) } catch { throw .invalidSubject("\(shown) \(error.reason)") }
            if Self.isLocal(url.host) {
                throw .invalidSubject("\(shown) names a local host, which Apple's push service refuses (BadJwtToken)")
            }
        } else {
            throw .invalidSubject(
                "\(shown) must be a mailto: or https: URI (e.g. mailto:push@example.com); "
                    + "Apple's push service refuses anything else (BadJwtToken)")
        }
        self.value = value
    }

    public var description: String { value }

    /// Names that reach no one outside the sender's machine or network.
    private static func isLocal(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host.hasSuffix(".local") || host.hasPrefix("127.")
            || host == "[::1]"
    }
}
