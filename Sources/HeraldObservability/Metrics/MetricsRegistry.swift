import HeraldCore
import HeraldSystem

/// Every metric Herald exports, rendered in the Prometheus text exposition
/// format (version 0.0.4) for `/metrics`.
///
/// Registration happens at start-up; updates are atomic increments on series
/// objects the caller keeps, so the delivery hot path takes no registry lock.
public final class MetricsRegistry: Sendable {
    private enum Entry: Sendable {
        case counter(MetricFamily<Counter>)
        case gauge(MetricFamily<Gauge>)
        case histogram(MetricFamily<Histogram>)
        case collector(@Sendable () -> [SampledMetric])
    }

    private let entries = Locked<[Entry]>([])

    public init() {}

    public func counter(_ name: String, help: String, labels: [String] = []) -> MetricFamily<Counter> {
        let family = MetricFamily<Counter>(name: name, help: help, labelNames: labels, kind: "counter") { Counter() }
        entries.withLock { $0.append(.counter(family)) }
        return family
    }

    public func gauge(_ name: String, help: String, labels: [String] = []) -> MetricFamily<Gauge> {
        let family = MetricFamily<Gauge>(name: name, help: help, labelNames: labels, kind: "gauge") { Gauge() }
        entries.withLock { $0.append(.gauge(family)) }
        return family
    }

    public func histogram(
        _ name: String, help: String, labels: [String] = [],
        buckets: [Double] = Histogram.latencyBounds
    ) -> MetricFamily<Histogram> {
        let bounds = buckets.sorted()
        let family = MetricFamily<Histogram>(name: name, help: help, labelNames: labels, kind: "histogram") {
            Histogram(bounds: bounds)
        }
        entries.withLock { $0.append(.histogram(family)) }
        return family
    }

    /// Registers metrics whose values are read when `/metrics` is scraped
    /// (the process's CPU time and memory) rather than updated by Herald's code.
    public func collect(_ sample: @escaping @Sendable () -> [SampledMetric]) {
        entries.withLock { $0.append(.collector(sample)) }
    }

    /// The whole registry in the text exposition format.
    public func render() -> String {
        var out = ""
        for entry in entries.withLock({ $0 }) {
            switch entry {
            case .counter(let f):
                header(f, into: &out)
                for (values, c) in f.allSeries { line(f.name, f.labelNames, values, "\(c.current)", into: &out) }
            case .gauge(let f):
                header(f, into: &out)
                for (values, g) in f.allSeries { line(f.name, f.labelNames, values, "\(g.current)", into: &out) }
            case .histogram(let f):
                header(f, into: &out)
                for (values, h) in f.allSeries {
                    let snapshot = h.snapshot
                    for (bound, count) in zip(h.bounds, snapshot.cumulative) {
                        line(
                            f.name + "_bucket", f.labelNames + ["le"], values + [Self.number(bound)], "\(count)",
                            into: &out)
                    }
                    line(f.name + "_bucket", f.labelNames + ["le"], values + ["+Inf"], "\(snapshot.count)", into: &out)
                    line(f.name + "_sum", f.labelNames, values, Self.number(snapshot.sum), into: &out)
                    line(f.name + "_count", f.labelNames, values, "\(snapshot.count)", into: &out)
                }
            case .collector(let sample):
                var previous: String?
                for metric in sample() {
                    guard metric.value != nil || metric.declaresFamily else { continue }
                    if metric.name != previous {
                        out +=
                            "# HELP \(metric.name) \(Self.escapeHelp(metric.help))\n# TYPE \(metric.name) \(metric.kind)\n"
                        previous = metric.name
                    }
                    guard let value = metric.value else { continue }
                    line(
                        metric.name, metric.labels.map(\.name), metric.labels.map(\.value), Self.number(value),
                        into: &out)
                }
            }
        }
        return out
    }

    private func header<S>(_ family: MetricFamily<S>, into out: inout String) {
        out += "# HELP \(family.name) \(Self.escapeHelp(family.help))\n# TYPE \(family.name) \(family.kind)\n"
    }

    private func line(_ name: String, _ labels: [String], _ values: [String], _ value: String, into out: inout String) {
        out += name
        if !labels.isEmpty {
            out += "{"
            out += zip(labels, values).map { "\($0)=\"\(Self.escapeLabel($1))\"" }.joined(separator: ",")
            out += "}"
        }
        out += " " + value + "\n"
    }

    static func number(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func escapeLabel(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    static func escapeHelp(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}

/// One value a collector read at scrape time; nil leaves it out of that
/// scrape. A collector returns the series of one name one after another
/// (they share one `# HELP` and `# TYPE`).
public struct SampledMetric: Sendable {
    public let name: String
    public let help: String
    /// `gauge` or `counter`.
    public let kind: String
    /// The series' labels, in order.
    public let labels: [(name: String, value: String)]
    public let value: Double?

    /// Only the family's `# HELP` and `# TYPE`: a labelled family with no
    /// series yet is still listed (a counter of events that have not happened).
    public let declaresFamily: Bool

    public init(name: String, help: String, kind: String, labels: [(name: String, value: String)] = [], value: Double?)
    {
        self.name = name
        self.help = help
        self.kind = kind
        self.labels = labels
        self.value = value
        declaresFamily = false
    }

    private init(family name: String, help: String, kind: String) {
        self.name = name
        self.help = help
        self.kind = kind
        labels = []
        value = nil
        declaresFamily = true
    }

    /// The header of a labelled family, put before its series (if any).
    public static func family(_ name: String, help: String, kind: String) -> SampledMetric {
        SampledMetric(family: name, help: help, kind: kind)
    }
}
