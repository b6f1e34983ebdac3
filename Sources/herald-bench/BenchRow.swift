/// One line of the benchmark table.
struct BenchRow {
    static let header =
        "client                      requests  failed   req/s     client CPU µs/req  client CPU s/10k  server CPU µs/req"

    let name: String
    let requests: Int
    let failed: Int
    let wallSeconds: Double
    let clientCPUSeconds: Double
    let serverCPUSeconds: Double

    var clientMicrosecondsPerRequest: Double { clientCPUSeconds / Double(requests) * 1e6 }

    var line: String {
        let rate = Double(requests) / wallSeconds
        return Self.pad(name, 28) + Self.pad(String(requests), 10) + Self.pad(String(failed), 9)
            + Self.pad(Self.format(rate, 0), 10)
            + Self.pad(Self.format(clientMicrosecondsPerRequest, 1), 19)
            + Self.pad(Self.format(clientCPUSeconds / Double(requests) * 10_000, 3), 18)
            + Self.format(serverCPUSeconds / Double(requests) * 1e6, 1)
    }

    /// The run with the median client CPU per request.
    static func median(_ rows: [BenchRow]) -> BenchRow? {
        guard !rows.isEmpty else { return nil }
        return rows.sorted { $0.clientCPUSeconds < $1.clientCPUSeconds }[rows.count / 2]
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// `text` left-aligned in a column of `width` (at least one space after it).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
