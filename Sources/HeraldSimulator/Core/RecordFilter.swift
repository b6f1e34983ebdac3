import HeraldCore

/// Which recorded notifications or refusals a listing wants: the admin API's
/// query parameters (`provider`, `token`, `topic`, `since`, `status`,
/// `probes`), checked in one place for both kinds of record.
public struct RecordFilter: Sendable, Equatable {
    /// Whether probes are listed: left out by default, so a suite asserting
    /// "nothing else was sent" is not upset by `herald check --online`.
    public enum Probes: String, Sendable, CaseIterable {
        case exclude, include, only
    }

    /// `apns`, `fcm` or `oauth`.
    public var provider: String?
    /// The device or registration token (APNs tokens compare ignoring case).
    public var token: String?
    /// The APNs `apns-topic` or the FCM topic.
    public var topic: String?
    /// Received at or after this time.
    public var since: Timestamp?
    /// The answered status (refusals only; a filter with one lists no notification).
    public var status: Int?
    public var probes: Probes

    public init(
        provider: String? = nil, token: String? = nil, topic: String? = nil, since: Timestamp? = nil,
        status: Int? = nil,
        probes: Probes = .exclude
    ) {
        self.provider = provider
        self.token = token
        self.topic = topic
        self.since = since
        self.status = status
        self.probes = probes
    }

    public func matches(_ notification: RecordedNotification) -> Bool {
        status.map { $0 == 200 } ?? true
            && admits(provider: notification.provider, addressee: notification.addressee, at: notification.receivedAt)
    }

    public func matches(_ refusal: RecordedRefusal) -> Bool {
        status.map { $0 == refusal.status } ?? true
            && admits(provider: refusal.provider, addressee: refusal.addressee, at: refusal.receivedAt)
    }

    private func admits(provider: String?, addressee: SimulatedAddressee?, at receivedAt: Timestamp) -> Bool {
        let probe = addressee?.probe ?? false
        switch probes {
        case .exclude: if probe { return false }
        case .only: if !probe { return false }
        case .include: break
        }
        if let wanted = self.provider, wanted != provider { return false }
        if let token, addressee?.hasToken(token) != true { return false }
        if let topic, addressee?.topic != topic { return false }
        if let since, receivedAt < since { return false }
        return true
    }
}
