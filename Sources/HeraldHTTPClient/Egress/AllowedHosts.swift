/// The host names a provider may send to whose URLs come from input (Web
/// Push's `allowed_hosts`): each entry allows the host itself and every name
/// below it, matched on label boundaries (`push.apple.com` allows
/// `web.push.apple.com`, never `evil-push.apple.com`), case-insensitively;
/// an IP literal entry allows only that address; `*` allows every host.
///
/// Why: the egress policy keeps requests off internal addresses, but a
/// subscription could still name any public host; the push services browsers
/// use are a short, known list.
public struct AllowedHosts: Sendable, Equatable, CustomStringConvertible {
    /// The entries in lower case, without a trailing dot.
    public let entries: [String]
    /// An entry is `*`.
    public let allowsAnyHost: Bool

    public init(_ entries: [String]) {
        self.entries = entries.map { Self.normalized($0) }
        allowsAnyHost = self.entries.contains("*")
    }

    /// Whether `host` (a URL's host; an IPv6 literal with or without brackets) is allowed.
    /// Compared byte for byte after ASCII lower-casing: a host with an empty
    /// label or a byte a host name cannot have never matches a name entry.
    public func allows(_ host: some StringProtocol) -> Bool {
        if allowsAnyHost { return true }
        let name = Self.normalized(host)
        if let address = IPAddress(host: name) {
            return entries.contains { IPAddress(host: $0) == address }
        }
        // A name with an empty label (`.push.apple.com`) or another byte is no name below an entry.
        guard name != "*", Self.problem(with: name) == nil else { return false }
        let nameBytes = Array(name.utf8)
        return entries.contains { entry in
            let entryBytes = Array(entry.utf8)
            guard !entryBytes.isEmpty, IPAddress(host: entry) == nil, nameBytes.count >= entryBytes.count else {
                return false
            }
            guard nameBytes.suffix(entryBytes.count).elementsEqual(entryBytes) else { return false }
            return nameBytes.count == entryBytes.count
                || nameBytes[nameBytes.count - entryBytes.count - 1] == UInt8(ascii: ".")
        }
    }

    /// Why `entry` cannot be an entry, or nil: `*`, an IP literal, or a host name (letters, digits, `-`, `_`, dots between labels).
    public static func problem(with entry: String) -> String? {
        let name = normalized(entry)
        if name == "*" || IPAddress(host: name) != nil { return nil }
        if name.isEmpty { return "is empty" }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isHostByte) }) else {
            return "is not a host name (labels of letters, digits, '-' or '_' between dots; '*' alone allows any host)"
        }
        return nil
    }

    public var description: String { entries.joined(separator: ", ") }

    /// ASCII lower case (other bytes kept), one trailing dot dropped.
    private static func normalized(_ text: some StringProtocol) -> String {
        var bytes = text.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        if bytes.count > 1, bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
            UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
