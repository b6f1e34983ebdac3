import HeraldCore
import HeraldSystem

/// One metric name with its help text and its series, one per combination of
/// label values. Series are created on first use and live as long as the registry.
public final class MetricFamily<Series: Sendable>: Sendable {
    public let name: String
    public let help: String
    public let labelNames: [String]
    let kind: String
    private let make: @Sendable () -> Series
    private let series = Locked<[[String]: Series]>([:])

    init(name: String, help: String, labelNames: [String], kind: String, make: @escaping @Sendable () -> Series) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.kind = kind
        self.make = make
    }

    /// The series for these label values, in the order of `labelNames`.
    /// Callers on hot paths keep the returned object rather than looking it up each time.
    public func labels(_ values: String...) -> Series { labels(values) }

    public func labels(_ values: [String]) -> Series {
        precondition(values.count == labelNames.count, "\(name) takes \(labelNames.count) label values")
        return series.withLock { all in
            if let existing = all[values] { return existing }
            let created = make()
            all[values] = created
            return created
        }
    }

    /// Every series, sorted by label values for a stable exposition.
    var allSeries: [([String], Series)] {
        series.withLock { all in all.map { ($0.key, $0.value) } }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
    }
}
