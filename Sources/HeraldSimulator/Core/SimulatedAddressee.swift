/// Whom one request is addressed to, as a simulated provider reads it: what
/// the record shows as the request's target, what the admin API's `token` and
/// `topic` filters and a per-token fault compare with, and whether the request
/// is a probe (`herald check --online`'s, or another client's following the
/// same convention).
///
/// It exists because the simulator's front door sees only paths and bytes:
/// each service says, in one place, where its requests name their addressee.
public struct SimulatedAddressee: Sendable, Equatable {
    /// What the record shows: the device or registration token, else the FCM topic or condition.
    public var target: String
    /// The APNs device token or the FCM registration token, when the request names one.
    public var token: String?
    /// The APNs `apns-topic` (the app's bundle id and push-type suffix) or the FCM topic.
    public var topic: String?
    /// Whether the request is a probe: it proves credentials and must not be
    /// taken for a notification (the APNs all-zero token, the FCM probe topic).
    public var probe: Bool
    /// Whether tokens compare ignoring case: APNs device tokens are hexadecimal
    /// (Apple accepts either case); FCM registration tokens are case-sensitive.
    public var tokenIgnoresCase: Bool

    public init(target: String, token: String?, topic: String?, probe: Bool = false, tokenIgnoresCase: Bool = false) {
        self.target = target
        self.token = token
        self.topic = topic
        self.probe = probe
        self.tokenIgnoresCase = tokenIgnoresCase
    }

    /// Whether `candidate` names this addressee's token (ignoring case for APNs).
    public func hasToken(_ candidate: String) -> Bool {
        guard let token else { return false }
        return tokenIgnoresCase ? token.lowercased() == candidate.lowercased() : token == candidate
    }

    /// Whether `candidate` is this addressee's target: its token (compared as
    /// `hasToken` does), or its FCM topic or condition. Per-token faults use it.
    public func isTarget(_ candidate: String) -> Bool {
        token != nil ? hasToken(candidate) : target == candidate
    }
}
