import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldRegistry

/// Decides whether an event's first delivery is a duplicate of one received
/// within `duplicate_window` (docs/traffic.md): the id is claimed when the
/// event is received, so a second event with it — at once or later, on this
/// instance or, with a registry database, on any other or after a restart —
/// is not delivered again.
///
/// The instance's own memory answers first (no database round trip for a
/// duplicate it saw itself); an id new to it is then claimed in the registry
/// database, whose one-statement upsert lets exactly one instance win. When
/// the database cannot be reached the event is not held back: it counts as
/// new (a possible duplicate delivered beats traffic stalled behind the
/// registry), and that is logged at most once a minute.
final class DuplicateWindow: Sendable {
    let window: Duration
    private let memory: ReceivedEventIDs
    private let shared: (any RegistryStore)?
    private let logger: Logger
    private let lastWarning = Locked<ContinuousClock.Instant?>(nil)

    init(window: Duration, shared: (any RegistryStore)?, logger: Logger) {
        self.window = window
        memory = ReceivedEventIDs(window: window)
        self.shared = shared
        self.logger = logger
    }

    /// Claims `id`, received at `now`: nil when this is its first event within
    /// the window, else when the first was received.
    func claim(_ id: String, at now: Timestamp) async -> Timestamp? {
        if let first = memory.claim(id, at: now) { return first }
        guard let shared else { return nil }
        do {
            return try await shared.claimEvent(id, at: now, since: now + (.zero - window))
        } catch {
            warn("the duplicate window's registry database cannot be reached; events count as new meanwhile", error)
            return nil
        }
    }

    /// Whether the window is kept in the registry database (and `forgetExpired` has work).
    var isShared: Bool { shared != nil }

    /// Deletes the ids whose window was over at `now` from the registry database.
    func forgetExpired(now: Timestamp) async {
        do {
            try await shared?.forgetEvents(before: now + (.zero - window))
        } catch {
            warn("the duplicate window's expired ids could not be deleted from the registry database", error)
        }
    }

    private func warn(_ message: StaticString, _ error: RegistryError) {
        let now = ContinuousClock.now
        let due = lastWarning.withLock { last in
            guard last.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
            last = now
            return true
        }
        if due { logger.warning(message, ["error": .string("\(error)")]) }
    }
}
