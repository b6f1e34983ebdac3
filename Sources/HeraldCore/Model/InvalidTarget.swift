/// A target of an event that can never be delivered as written — a malformed
/// device token, a bad FCM topic, an unknown provider, a target that is not
/// even an object — kept beside the event's good targets so that it alone gets
/// a terminal outcome while the others are sent.
///
/// One stale row in an upstream token table must not cancel a fan-out: the
/// event stays valid as long as the problem is confined to one target.
public struct InvalidTarget: Sendable, Hashable {
    /// What the target's outcome says.
    public enum Verdict: Sendable, Hashable {
        /// The address is a device token or FID that can never work (not
        /// hexadecimal for APNs, not base64 for a FID, empty, too long): `invalid_token` with reason
        /// ``InvalidTarget/badDeviceTokenReason``, so upstream deletes it.
        case invalidToken
        /// Anything else about the target: `failed`, the reason naming the field.
        case failed
    }

    /// Herald's reason for a device token that can never work, the same name
    /// Apple uses for it.
    public static let badDeviceTokenReason = "BadDeviceToken"

    /// Where the target was: its index in `targets`, or 0 for the top-level shorthand.
    public var index: Int
    /// The provider the target names, when it names a known one.
    public var provider: Provider?
    /// The token, FID, topic or condition exactly as given, when it is a string.
    public var address: Target.Address?
    /// The channel the target names, when it names one as a string.
    public var channel: String?
    /// What is wrong, with the field's path (`targets[2].token: ...`).
    public var error: EventError
    public var verdict: Verdict

    public init(
        index: Int, provider: Provider?, address: Target.Address?, channel: String? = nil, error: EventError,
        verdict: Verdict
    ) {
        self.index = index
        self.provider = provider
        self.address = address
        self.channel = channel
        self.error = error
        self.verdict = verdict
    }

    /// The outcome's reason: `BadDeviceToken` for a token that can never work
    /// (the error goes in the outcome's `detail`), else the error itself.
    public var reason: String {
        switch verdict {
        case .invalidToken: Self.badDeviceTokenReason
        case .failed: error.description
        }
    }

    /// The outcome's detail: the error, when the reason does not already say it.
    public var detail: String? {
        switch verdict {
        case .invalidToken: error.description
        case .failed: nil
        }
    }

    /// The outcome status of the verdict.
    public var status: Outcome.Status {
        switch verdict {
        case .invalidToken: .invalidToken
        case .failed: .failed
        }
    }
}
