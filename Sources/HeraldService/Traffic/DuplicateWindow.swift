import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldRegistry
import HeraldSystem

/// Decides whether an event's first delivery is a duplicate of one received
/// within `duplicate_window` (docs/traffic.md): the event's app and id
/// (`EventKey`) are claimed when the event is received, so a second event of
/// that app with that id — at once or later, on this instance or, with a
/// registry database, on any other or after a restart — is not delivered
/// again. Another app's event with the same id is not its duplicate.
///
/// The instance's own memory answers first (no database round trip for a
/// duplicate it saw itself); a key new to it is then claimed in the registry
/// database, whose upsert lets exactly one instance win. Claims are batched
/// like a group commit: one batch is in the database at a time, and the ids
/// received meanwhile go together in the next (one transaction, one upsert
/// for up to `maxBatch` keys, instead of one per event). When
/// the database cannot be reached the event is not held back: it counts as
/// new (a possible duplicate delivered beats traffic stalled behind the
/// registry), and that is logged at most once a minute.
final class DuplicateWindow: Sendable {
    let window: Duration
    private let memory: ReceivedEventIDs
    private let shared: (any RegistryStore)?
    private let logger: Logger
    private let lastWarning = Locked<ContinuousClock.Instant?>(nil)
    private let clock: @Sendable () -> Timestamp
    private let batch = Locked(Batch())

    /// Claims waiting for the database, and whether a batch is there now.
    private struct Batch {
        var waiting: [(key: EventKey, continuation: CheckedContinuation<Timestamp?, Never>)] = []
        var inFlight = false
    }

    /// The most keys one statement claims.
    static let maxBatch = 500
    /// How long a batch waits for the database before its events count as
    /// new (a database that hangs must not stall delivery).
    static let claimTimeout = Duration.seconds(2)

    init(window: Duration, shared: (any RegistryStore)?, logger: Logger, clock: @escaping @Sendable () -> Timestamp) {
        self.window = window
        self.clock = clock
        memory = ReceivedEventIDs(window: window)
        self.shared = shared
        self.logger = logger
    }

    /// Claims `key`, received at `now`: nil when this is its first event within
    /// the window, else when the first was received.
    func claim(_ key: EventKey, at now: Timestamp) async -> Timestamp? {
        if let first = memory.claim(key, at: now) { return first }
        guard shared != nil else { return nil }
        return await withCheckedContinuation { continuation in
            let starts = batch.withLock { batch in
                batch.waiting.append((key, continuation))
                defer { batch.inFlight = true }
                return !batch.inFlight
            }
            if starts { Task { await self.claimWaiting() } }
        }
    }

    /// Claims the waiting keys in the database, batch after batch, until none waits.
    private func claimWaiting() async {
        guard let shared else { return }
        while true {
            let claims = batch.withLock { batch in
                let taken = Array(batch.waiting.prefix(Self.maxBatch))
                batch.waiting.removeFirst(taken.count)
                if taken.isEmpty { batch.inFlight = false }
                return taken
            }
            if claims.isEmpty { return }
            let answers = await claimed(claims.map(\.key), in: shared)
            for (index, claim) in claims.enumerated() {
                claim.continuation.resume(returning: index < answers.count ? answers[index] : nil)
            }
        }
    }

    /// The database's answers for `keys`, or none (every id new) when it
    /// failed or took longer than `claimTimeout`; a late answer is dropped.
    private func claimed(_ keys: [EventKey], in shared: any RegistryStore) async -> [Timestamp?] {
        let now = clock()
        let since = now + (.zero - window)
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<[Timestamp?], RegistryError>?, Never>) in
            let resumed = Locked(false)
            let resume: @Sendable (Result<[Timestamp?], RegistryError>?) -> Void = { outcome in
                if resumed.withLock({ done in
                    defer { done = true }; return !done
                }) {
                    continuation.resume(returning: outcome)
                }
            }
            let timer = Task {
                guard (try? await Task.sleep(for: Self.claimTimeout)) != nil else { return }
                resume(nil)
            }
            Task {
                do throws(RegistryError) {
                    resume(.success(try await shared.claimEvents(keys, at: now, since: since)))
                } catch {
                    resume(.failure(error))
                }
                timer.cancel()
            }
        }
        switch outcome {
        case .success(let answers)?: return answers
        case .failure(let error)?:
            warn(
                "the duplicate window's registry database cannot be reached; events count as new meanwhile", "\(error)")
        case nil:
            warn(
                "the duplicate window's registry database did not answer in time; events count as new meanwhile",
                "no answer within \(Self.claimTimeout)")
        }
        return []
    }

    /// Whether the window is kept in the registry database (and `forgetExpired` has work).
    var isShared: Bool { shared != nil }

    /// Deletes the ids whose window was over at `now` from the registry database.
    func forgetExpired(now: Timestamp) async {
        do {
            try await shared?.forgetEvents(before: now + (.zero - window))
        } catch {
            warn("the duplicate window's expired ids could not be deleted from the registry database", "\(error)")
        }
    }

    private func warn(_ message: StaticString, _ error: String) {
        let now = ContinuousClock.now
        let due = lastWarning.withLock { last in
            guard last.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
            last = now
            return true
        }
        if due { logger.warning(message, ["error": .string(error)]) }
    }
}
