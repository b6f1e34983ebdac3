import HeraldCore

/// What arrived on the results exchange, per target: terminal outcomes (anything
/// but `retrying`), targets still missing one, and duplicates (terminal
/// outcomes beyond the first for a target).
struct Tally {
    var finished: Set<String> = []
    var missing: Set<String> = []
    var unexpected: [String] = []
    var duplicates = 0
    var statuses: [String: Int] = [:]

    init(_ outcomes: [(routingKey: String, outcome: Outcome)], expected: Set<String>) {
        for (_, outcome) in outcomes {
            // A publish the broker took twice (its confirm lost in a failover) is dropped as a
            // duplicate of the first (duplicate_window): a repeated outcome, not a new status.
            if outcome.status == .dropped, outcome.reason?.hasPrefix("duplicate event: ") == true {
                duplicates += 1
                continue
            }
            statuses[outcome.status.rawValue, default: 0] += 1
            guard outcome.status != .retrying else { continue }
            let key = "\(outcome.eventID)/\(outcome.provider?.rawValue ?? "-")/\(outcome.address?.value ?? "-")"
            guard expected.contains(key) else { unexpected.append(key); continue }
            if !finished.insert(key).inserted { duplicates += 1 }
        }
        missing = expected.subtracting(finished)
    }

    var missingSummary: String {
        "\(missing.count) targets without a terminal outcome, e.g. \(missing.sorted().prefix(5))"
    }
}
