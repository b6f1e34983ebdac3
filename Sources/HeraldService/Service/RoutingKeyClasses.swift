import HeraldCore
import HeraldSystem

/// The `routing_key_class` label of `herald_events_consumed_total`: the routing
/// key's first word (`chat` of `chat.message`), `none` for an empty key, and
/// `other` once 32 distinct words have been seen, so the label stays bounded
/// whatever publishers send.
final class RoutingKeyClasses: Sendable {
    static let limit = 32
    private let seen = Locked<Set<String>>([])

    func label(for routingKey: String) -> String {
        let word =
            routingKey.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? ""
        if word.isEmpty { return "none" }
        return seen.withLock { seen in
            if seen.contains(word) { return word }
            guard seen.count < Self.limit else { return "other" }
            seen.insert(word)
            return word
        }
    }
}
