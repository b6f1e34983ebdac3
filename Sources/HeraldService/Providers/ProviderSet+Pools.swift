import HeraldHTTPClient
import HeraldObservability

extension ProviderSet {
    /// The connection pools of every client, one per provider host (clients
    /// sharing a host add up), and the GOAWAYs each host sent.
    var connectionPools: (pools: [HTTPConnectionPoolStatistics], goAways: [HTTPClientStatistics.GoAwayKey: Int]) {
        var pools: [String: HTTPConnectionPoolStatistics] = [:]
        var goAways: [HTTPClientStatistics.GoAwayKey: Int] = [:]
        for client in clients {
            for pool in client.statistics.pools {
                var sum = pools[pool.host] ?? HTTPConnectionPoolStatistics(host: pool.host)
                sum.connections += pool.connections
                sum.streams += pool.streams
                sum.waiting += pool.waiting
                sum.busiestConnection = max(sum.busiestConnection, pool.busiestConnection)
                pools[pool.host] = sum
            }
            goAways.merge(client.statistics.goAways, uniquingKeysWith: +)
        }
        return (pools.values.sorted { $0.host < $1.host }, goAways)
    }

    /// `herald_http_connections`, `herald_http_streams`,
    /// `herald_http_requests_waiting` and `herald_http_goaways_received_total`,
    /// read at each scrape (docs/metrics.md).
    func poolMetrics() -> [SampledMetric] {
        let (pools, goAways) = connectionPools
        func series(_ name: String, _ help: String, _ value: (HTTPConnectionPoolStatistics) -> Int) -> [SampledMetric] {
            [.family(name, help: help, kind: "gauge")]
                + pools.map {
                    SampledMetric(
                        name: name, help: help, kind: "gauge", labels: [("host", $0.host)], value: Double(value($0)))
                }
        }
        let goAwayName = "herald_http_goaways_received_total"
        let goAwayHelp = "GOAWAY frames received from a provider host."
        return series("herald_http_connections", "HTTP/2 connections open to a provider host.", \.connections)
            + series("herald_http_streams", "Requests on a stream to a provider host, not yet answered.", \.streams)
            + series(
                "herald_http_requests_waiting", "Requests waiting for a free stream or connection to a provider host.",
                \.waiting)
            + [.family(goAwayName, help: goAwayHelp, kind: "counter")]
            + goAways.sorted { ($0.key.host, $0.key.error) < ($1.key.host, $1.key.error) }.map {
                SampledMetric(
                    name: goAwayName, help: goAwayHelp, kind: "counter",
                    labels: [("host", $0.key.host), ("error", $0.key.error)], value: Double($0.value))
            }
    }
}
