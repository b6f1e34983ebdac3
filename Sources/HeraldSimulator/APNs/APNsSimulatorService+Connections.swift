import HeraldCore

/// What Apple's servers do with the connection itself: HTTP/2 only, and a
/// stream limit that starts at 1 until a provider token is accepted.
extension APNsSimulatorService {
    /// Apple serves APNs over HTTP/2 only.
    public var requiresHTTP2: Bool { true }

    /// Apple: a token-authenticated connection starts with
    /// SETTINGS_MAX_CONCURRENT_STREAMS 1 until a request with a valid
    /// provider token; the simulator cannot tell token from certificate
    /// authentication before the first request, so every connection starts so.
    public var initialStreamLimit: SimulatorStreamLimit { .streams(1) }

    /// Rejection reasons that leave the provider token unaccepted: the checks
    /// before authentication and authentication's own (`check` runs them in
    /// this order); any other answer means the token (or certificate) was accepted.
    static let reasonsBeforeAcceptedCredentials: Set<String> = [
        "MethodNotAllowed", "BadPath", "MissingDeviceToken", "DuplicateHeaders",
        "InvalidProviderToken", "ExpiredProviderToken", "MissingProviderToken", "BadCertificate",
        "TooManyProviderTokenUpdates",
    ]

    /// The configured maximum once a request's credentials were accepted; nil (still 1) before.
    public func streamLimit(afterAnswering request: SimulatedRequest, with answer: SimulatedAnswer)
        -> SimulatorStreamLimit?
    {
        guard case .respond(let status, _, let body, _) = answer else { return nil }
        if status == 200 { return .configuredMaximum }
        let reason = (try? JSONValue.parse(body))?.objectValue?["reason"]?.stringValue ?? ""
        return Self.reasonsBeforeAcceptedCredentials.contains(reason) ? nil : .configuredMaximum
    }
}
