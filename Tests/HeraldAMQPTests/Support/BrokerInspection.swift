import Foundation
import HeraldTestSupport

/// What the shared broker says about its queues, consumers and channels,
/// through `scripts/rabbitmq ctl` (the node on 127.0.0.1:5672), for tests
/// that check what Herald declared or asked for rather than what it sent.
enum BrokerInspection {
    struct Queue: Sendable, Equatable {
        var durable: Bool
        var exclusive: Bool
        var autoDelete: Bool
        /// Argument name to its value, as text (`"1800000"`, `"quorum"`).
        var arguments: [String: String]
    }

    struct Consumer: Sendable, Equatable {
        var channel: String
        var prefetchCount: Int
        var arguments: [String: String]
    }

    struct Channel: Sendable, Equatable {
        var prefetchCount: Int
        var globalPrefetchCount: Int
    }

    /// The queues named `names` that exist, by name.
    static func queues(_ names: [String]) async throws -> [String: Queue] {
        var found: [String: Queue] = [:]
        for row in try await list(["list_queues", "name", "durable", "exclusive", "auto_delete", "arguments"]) {
            guard let name = row["name"] as? String, names.contains(name) else { continue }
            found[name] = Queue(
                durable: row["durable"] as? Bool ?? false, exclusive: row["exclusive"] as? Bool ?? false,
                autoDelete: row["auto_delete"] as? Bool ?? false, arguments: table(row["arguments"]))
        }
        return found
    }

    /// The consumers of `queue`, by consumer tag.
    static func consumers(of queue: String) async throws -> [String: Consumer] {
        var found: [String: Consumer] = [:]
        for row in try await list([
            "list_consumers", "queue_name", "consumer_tag", "channel_pid", "prefetch_count", "arguments",
        ]) {
            guard row["queue_name"] as? String == queue, let tag = row["consumer_tag"] as? String else { continue }
            found[tag] = Consumer(
                channel: row["channel_pid"] as? String ?? "", prefetchCount: row["prefetch_count"] as? Int ?? -1,
                arguments: table(row["arguments"]))
        }
        return found
    }

    /// The channel whose process id is `pid` (as `consumers(of:)` gives it).
    static func channel(_ pid: String) async throws -> Channel? {
        let rows = try await list(["list_channels", "pid", "prefetch_count", "global_prefetch_count"])
        return rows.first { $0["pid"] as? String == pid }.map {
            Channel(
                prefetchCount: $0["prefetch_count"] as? Int ?? -1,
                globalPrefetchCount: $0["global_prefetch_count"] as? Int ?? -1)
        }
    }

    /// A listing failed once (exit 70) while other tests on the shared broker
    /// were closing channels and deleting queues; it only reads, so a failed
    /// one is tried again, twice.
    private static func list(_ arguments: [String]) async throws -> [[String: Any]] {
        var attempt = 1
        var output: String
        while true {
            do {
                output = try await ScriptRunner.run(
                    ScriptRunner.rabbitmqScript, ["ctl", "-q", "--formatter=json"] + arguments)
                break
            } catch  where attempt < 3 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(200))  // a pause between attempts, not a wait for an event
            }
        }
        guard let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw TestFailure("rabbitmqctl \(arguments) did not print a JSON list: \(output)")
        }
        return rows
    }

    /// rabbitmqctl prints a table as `[[name, type, value], ...]`.
    private static func table(_ value: Any?) -> [String: String] {
        var table: [String: String] = [:]
        for entry in value as? [[Any]] ?? [] where entry.count == 3 {
            if let name = entry[0] as? String { table[name] = "\(entry[2])" }
        }
        return table
    }
}
