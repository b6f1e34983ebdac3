import HeraldCore
import HeraldSystem

/// What `/readyz` reports: a set of named conditions (broker connected,
/// consumer active, ...) that must all hold for the instance to take traffic.
/// `/healthz` only says the process answers.
public final class HealthState: Sendable {
    private let conditions = Locked<[(name: String, ok: Bool, detail: String?)]>([])

    public init() {}

    /// Sets a condition, adding it the first time it is named; `detail` (which
    /// broker node, ...) follows its state in the report.
    public func set(_ name: String, _ ok: Bool, detail: String? = nil) {
        conditions.withLock { list in
            if let i = list.firstIndex(where: { $0.name == name }) {
                list[i].ok = ok
                list[i].detail = detail
            } else {
                list.append((name, ok, detail))
            }
        }
    }

    /// Ready when at least one condition is known and all hold.
    public var isReady: Bool { conditions.withLock { !$0.isEmpty && $0.allSatisfy(\.ok) } }

    /// One line per condition: `amqp_connected ok 10.0.0.7:5672` / `consumer_active FAILING`.
    public var report: String {
        conditions.withLock { list in
            list.isEmpty
                ? "starting\n"
                : list.map { condition in
                    "\(condition.name) \(condition.ok ? "ok" : "FAILING")\(condition.detail.map { " " + $0 } ?? "")\n"
                }.joined()
        }
    }
}
