/// Which addresses an `HTTPClient` may connect to: the policy for requests
/// whose host comes from input (a Web Push subscription's endpoint, chosen
/// by the subscriber's browser — or by anyone who can publish an event).
///
/// Why: without it such a request is a server-side request forgery with the
/// answer read back (loopback and private services, cloud metadata, a port
/// scanner through the transport errors). The policy is enforced where the
/// address is final: libcurl's open-socket callback (and the nghttp2
/// engine's resolver result) sees each address after resolution, so a name
/// that resolves to a refused address — DNS rebinding included — is refused
/// with no connection made. `refusal(forHost:)` checks an IP literal before
/// any request, for the same verdict without a resolver.
///
/// The client's configuration carries it; the service maps the provider's
/// settings onto it. Hosts from configuration (APNs, FCM, their `endpoint`)
/// use `.unrestricted`.
public struct EgressPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Only public unicast addresses: every block `SpecialPurposeAddresses`
    /// names is refused. Off: any address (the hosts come from configuration,
    /// or the operator opted in to internal addresses for a simulator or tests).
    public var refusesSpecialPurposeAddresses: Bool

    public init(refusesSpecialPurposeAddresses: Bool) {
        self.refusesSpecialPurposeAddresses = refusesSpecialPurposeAddresses
    }

    /// Any address: for hosts that come from configuration.
    public static let unrestricted = EgressPolicy(refusesSpecialPurposeAddresses: false)
    /// Public unicast addresses only: for hosts that come from input.
    public static let publicAddressesOnly = EgressPolicy(refusesSpecialPurposeAddresses: true)

    /// Why the policy refuses to connect to `address`, or nil when it may.
    public func refusal(for address: IPAddress) -> EgressRefusal? {
        guard refusesSpecialPurposeAddresses, let block = SpecialPurposeAddresses.refusal(for: address) else {
            return nil
        }
        return EgressRefusal(rule: "the address \(address) is not a public address: \(block)")
    }

    /// The check before any request: why the policy refuses `host` (a URL's
    /// host, an IPv6 literal in brackets or not) when it is an IP literal the
    /// policy refuses; nil for an allowed literal and for every name (a name
    /// is judged by the addresses it resolves to, at connect time).
    public func refusal(forHost host: some StringProtocol) -> EgressRefusal? {
        guard refusesSpecialPurposeAddresses, let address = IPAddress(host: host) else { return nil }
        return refusal(for: address)
    }

    public var description: String { refusesSpecialPurposeAddresses ? "public addresses only" : "unrestricted" }
}

/// A destination the egress rules refuse, and the rule in words. Reported
/// as the target's `failed` outcome with reason `EgressRefusal.reason` and the
/// rule as its detail; nothing was sent, no connection was made.
public struct EgressRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The outcome reason of every refused destination, whichever rule refused it.
    public static let reason = "EndpointNotAllowed"

    /// Which rule refused it: `the address 127.0.0.1 is not a public address: 127.0.0.0/8 loopback (RFC 1122)`.
    public let rule: String

    public init(rule: String) {
        self.rule = rule
    }

    public var description: String { "\(Self.reason): \(rule)" }
}
