import HeraldCore
import HeraldSystem

/// Stops one misconfigured app from telling upstream to delete good tokens.
///
/// A production app sent sandbox tokens (or the wrong topic, or the wrong FCM
/// project) gets the same answer for every token — APNs `BadDeviceToken`, FCM
/// `INVALID_ARGUMENT` about the token or `SENDER_ID_MISMATCH` — and each would
/// become `invalid_token`. Per app and provider the guard counts the answers of
/// a sliding window; when at least ``Policy/minAnswers`` answers arrived in it
/// and at least ``Policy/share`` of them were such answers, the next ones are
/// held back: `failed` with a reason saying a mismatch is suspected, the token
/// not invalidated. It is judged as each answer arrives, so at most
/// `minAnswers - 1` tokens are invalidated before it trips, and it clears by
/// itself once the window's share falls below the threshold again.
/// Answers only a dead token gets (APNs 410 `Unregistered`, FCM
/// `UNREGISTERED`) are never held back.
public final class InvalidationGuard: Sendable {
    /// When the guard trips.
    public struct Policy: Sendable, Equatable {
        /// Off: every answer is reported as the provider gave it.
        public var enabled: Bool
        /// Fewer answers than this in the window never trip the guard.
        public var minAnswers: Int
        /// The share (0...1) of suspect answers in the window that trips it.
        public var share: Double
        /// How far back answers count.
        public var window: Duration

        /// At least 10 answers and half of them suspect within 60 s.
        public static let `default` = Policy(enabled: true, minAnswers: 10, share: 0.5, window: .seconds(60))

        public init(enabled: Bool, minAnswers: Int, share: Double, window: Duration) {
            self.enabled = enabled
            self.minAnswers = max(1, minAnswers)
            self.share = min(max(share, 0), 1)
            self.window = window
        }
    }

    /// Whose answers are counted together.
    public struct Key: Hashable, Sendable {
        public let app: String
        public let provider: Provider
        public init(app: String, provider: Provider) {
            self.app = app
            self.provider = provider
        }
    }

    /// What the guard decided about one answer.
    public enum Judgement: Sendable, Equatable {
        /// Report the answer as the provider gave it.
        case report
        /// Do not invalidate the token: `suspect` of the window's `answers` were suspect.
        case holdBack(suspect: Int, answers: Int)
    }

    /// What the guard tells its observer, for logs and metrics.
    public enum Report: Sendable, Equatable {
        /// `key`'s suspect answers are held back from now on.
        case tripped(Key, suspect: Int, answers: Int)
        /// `key`'s answers are reported as given again.
        case cleared(Key)
        /// One answer of `key` was held back.
        case heldBack(Key)
    }

    /// The window of one key: a ring of buckets, each counting its slice of time.
    struct Window {
        static let buckets = 20
        var slice: [Int64] = Array(repeating: -1, count: buckets)
        var answers: [Int] = Array(repeating: 0, count: buckets)
        var suspect: [Int] = Array(repeating: 0, count: buckets)
        var tripped = false

        /// Adds one answer in time slice `index` and returns the window's totals.
        mutating func add(suspect isSuspect: Bool, slice index: Int64) -> (answers: Int, suspect: Int) {
            let position = Int(index % Int64(Self.buckets))
            if slice[position] != index {
                slice[position] = index
                answers[position] = 0
                suspect[position] = 0
            }
            answers[position] += 1
            if isSuspect { suspect[position] += 1 }
            var totals = (answers: 0, suspect: 0)
            for i in 0..<Self.buckets where slice[i] > index - Int64(Self.buckets) && slice[i] <= index {
                totals.answers += answers[i]
                totals.suspect += suspect[i]
            }
            return totals
        }

        /// Adds one answer of `key` in time slice `index`: the judgement, and the change of state to report.
        mutating func judge(_ key: Key, suspect: Bool, slice index: Int64, policy: Policy) -> (Judgement, Report?) {
            let totals = add(suspect: suspect, slice: index)
            let trips =
                totals.answers >= policy.minAnswers
                && Double(totals.suspect) >= policy.share * Double(totals.answers)
            var change: Report?
            if trips != tripped {
                tripped = trips
                change = trips ? .tripped(key, suspect: totals.suspect, answers: totals.answers) : .cleared(key)
            }
            return (trips && suspect ? .holdBack(suspect: totals.suspect, answers: totals.answers) : .report, change)
        }
    }

    public let policy: Policy
    private let windows = Locked<[Key: Window]>([:])
    private let observer: @Sendable (Report) -> Void

    /// - Parameter observer: told when a key trips or clears and of every
    ///   answer held back (log lines and metrics), outside the guard's lock.
    public init(policy: Policy = .default, observer: @escaping @Sendable (Report) -> Void = { _ in }) {
        self.policy = policy
        self.observer = observer
    }

    /// Counts one definitive answer for `key` at `now`. `suspect`: the answer
    /// would invalidate the token but could come from a misconfiguration
    /// (`DeliveryResult.couldBeMisconfiguration`).
    public func judge(_ key: Key, suspect: Bool, at now: Timestamp) -> Judgement {
        guard policy.enabled else { return .report }
        let sliceMilliseconds = max(1, policy.window.milliseconds / Int64(Window.buckets))
        let index = now.millisecondsSinceEpoch / sliceMilliseconds
        // The window is changed in place: a copy taken out of the dictionary
        // would share its buckets and copy them on every answer.
        let (judgement, change) = windows.withLock { windows -> (Judgement, Report?) in
            windows[key, default: Window()].judge(key, suspect: suspect, slice: index, policy: policy)
        }
        if let change { observer(change) }
        if judgement != .report { observer(.heldBack(key)) }
        return judgement
    }

    /// Whether `key`'s answers are being held back now.
    public func isTripped(_ key: Key) -> Bool {
        windows.withLock { $0[key]?.tripped ?? false }
    }
}

extension Duration {
    /// Whole milliseconds, truncated.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
