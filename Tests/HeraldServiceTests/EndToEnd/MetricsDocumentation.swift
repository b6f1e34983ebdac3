import Foundation
import Testing

/// docs/metrics.md's metric table as a contract: every family `/metrics`
/// serves is documented with its type, labels and histogram buckets, and
/// every documented one is served.
struct MetricsDocumentation {
    struct Family: Equatable {
        var type: String
        /// Label names, sorted; nil when the scrape had no series to read them from.
        var labels: [String]?
        /// Histogram upper bounds (without `+Inf`).
        var buckets: [Double]?
    }

    /// The table rows: `| \`name\` | type | labels | meaning (… Buckets: a, b, …) |`.
    static func documented(_ markdown: String) -> [String: Family] {
        var families: [String: Family] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 5, ["counter", "gauge", "histogram"].contains(cells[2]) else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let labels =
                cells[3] == "—"
                ? []
                : cells[3].split(separator: ",").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "` "))
                }.sorted()
            var buckets: [Double]?
            if let range = cells[4].range(of: "Buckets: ") {
                let list = cells[4][range.upperBound...].prefix { $0 != "|" }
                buckets = list.split(separator: ",").compactMap { Self.bound(String($0)) }
            }
            families[name] = Family(type: cells[2], labels: labels, buckets: buckets)
        }
        return families
    }

    /// `5ms`, `2.5s`, `1000` → seconds or a plain number.
    static func bound(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        if trimmed.hasSuffix("ms") { return Double(trimmed.dropLast(2)).map { $0 / 1000 } }
        if trimmed.hasSuffix("s") { return Double(trimmed.dropLast()) }
        return Double(trimmed)
    }

    /// The families of a scrape: `# TYPE` lines, labels and buckets of their first series.
    static func served(_ exposition: String) -> [String: Family] {
        var families: [String: Family] = [:]
        var histogramBuckets: [String: [Double]] = [:]
        // The buckets are read off each histogram's first series only.
        var firstSeries: [String: String] = [:]
        for line in exposition.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                if parts.count == 4 { families[String(parts[2])] = Family(type: String(parts[3])) }
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let brace = line.firstIndex(of: "{") else {
                // An unlabelled sample: its family has no labels.
                if let name = line.split(separator: " ").first.map(String.init), families[name] != nil,
                    families[name]?.labels == nil
                {
                    families[name]?.labels = []
                }
                continue
            }
            let sample = String(line[..<brace])
            let labelText = line[line.index(after: brace)..<(line.lastIndex(of: "}") ?? line.endIndex)]
            let pairs = labelText.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
            let names = pairs.compactMap(\.first).filter { $0 != "le" }.sorted()
            var family = sample
            for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) && families[sample] == nil {
                family = String(sample.dropLast(suffix.count))
            }
            guard families[family] != nil else { continue }
            if families[family]?.labels == nil { families[family]?.labels = names }
            guard sample == family + "_bucket" else { continue }
            let key = pairs.filter { $0.first != "le" }.map { $0.joined(separator: "=") }.joined(separator: ",")
            if firstSeries[family] == nil { firstSeries[family] = key }
            guard firstSeries[family] == key,
                let le = pairs.first(where: { $0.first == "le" })?.last?.trimmingCharacters(
                    in: CharacterSet(charactersIn: "\"")),
                le != "+Inf", let value = Double(le)
            else { continue }
            histogramBuckets[family, default: []].append(value)
        }
        for (name, buckets) in histogramBuckets { families[name]?.buckets = buckets }
        return families
    }

    /// Expectations that the scrape and the table agree.
    static func expectAgreement(scrape: String, markdown: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let documented = documented(markdown)
        let served = served(scrape)
        #expect(!documented.isEmpty && !served.isEmpty, "no metrics parsed", sourceLocation: sourceLocation)
        for (name, family) in served.sorted(by: { $0.key < $1.key }) {
            guard let doc = documented[name] else {
                Issue.record(
                    "/metrics serves \(name) (\(family.type)), which docs/metrics.md does not list",
                    sourceLocation: sourceLocation)
                continue
            }
            #expect(
                doc.type == family.type, "\(name): docs say \(doc.type), /metrics says \(family.type)",
                sourceLocation: sourceLocation)
            if let labels = family.labels {
                #expect(
                    doc.labels == labels, "\(name): docs list labels \(doc.labels ?? []), /metrics has \(labels)",
                    sourceLocation: sourceLocation)
            }
            if family.type == "histogram", let buckets = family.buckets {
                #expect(
                    doc.buckets == buckets, "\(name): docs list buckets \(doc.buckets ?? []), /metrics has \(buckets)",
                    sourceLocation: sourceLocation)
            }
        }
        for name in documented.keys.sorted() where served[name] == nil {
            Issue.record("docs/metrics.md lists \(name), which /metrics does not serve", sourceLocation: sourceLocation)
        }
    }
}
