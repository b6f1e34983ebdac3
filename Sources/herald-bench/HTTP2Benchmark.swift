import Glibc
import HeraldCore
import HeraldHTTPClient
import HeraldTestSupport

/// `herald-bench http2`: one server child process, three clients in turn —
/// our Swift client (in this process), the C reference (`--ref`), h2load —
/// each sending the same multiplexed TLS POSTs; prints requests/s and CPU.
struct HTTP2Benchmark {
    let options: BenchOptions

    func run() async {
        if let url = options.string("url"), let caFile = options.string("ca") {
            await runClientOnly(url: url, caFile: caFile)
            return
        }
        let requests = options.int("requests", 50_000)
        let concurrency = options.int("concurrency", 100)
        let connections = options.int("connections", 1)
        let bodyBytes = options.int("body-bytes", 256)
        let clients = Set(
            (options.string("clients") ?? "swift,swift-pool,ref,h2load").split(separator: ",").map(String.init))
        let pki: TestPKI
        do { pki = try await TestPKI.make(name: "Herald Bench CA") } catch {
            BenchOutput.line("error \(error)")
            exit(1)
        }
        defer { pki.remove() }
        let me = CommandLine.arguments[0]
        guard
            let server = ChildProcess([me, "serve", "--cert", pki.serverCertificatePath, "--key", pki.serverKeyPath]),
            let portLine = server.readLine(), portLine.hasPrefix("port "), let port = Int(portLine.dropFirst(5))
        else {
            BenchOutput.line("error: benchmark server did not start")
            exit(1)
        }
        let url = "https://127.0.0.1:\(port)/3/device/0123456789abcdef"
        BenchOutput.line(
            "herald-bench http2: \(requests) POSTs of \(bodyBytes) B, \(concurrency) in flight, \(connections) connection(s), TLS, server pid \(server.pid)"
        )
        BenchOutput.line(BenchRow.header)

        // Our client and the C reference take turns, `--repeat` times each, so
        // load from other processes on this shared machine hits both alike;
        // each is summarised by its median run.
        let rounds = max(1, options.int("repeat", 3))
        var swiftRuns: [BenchRow] = []
        var poolRuns: [BenchRow] = []
        var referenceRuns: [BenchRow] = []
        for _ in 0..<rounds {
            if clients.contains("swift") {
                let row = await runSwiftClient(
                    url: url, caFile: pki.caCertificatePath, requests: requests, concurrency: concurrency,
                    connections: connections, bodyBytes: bodyBytes, server: server, onLoopExecutor: true)
                BenchOutput.line(row.line)
                swiftRuns.append(row)
            }
            if clients.contains("swift-pool") {
                let row = await runSwiftClient(
                    url: url, caFile: pki.caCertificatePath, requests: requests, concurrency: concurrency,
                    connections: connections, bodyBytes: bodyBytes, server: server, onLoopExecutor: false)
                BenchOutput.line(row.line)
                poolRuns.append(row)
            }
            if clients.contains("ref"), let ref = options.string("ref"),
                let row = runChild(
                    name: "C libcurl multi (ref.c)",
                    [
                        ref, url, pki.caCertificatePath, String(requests), String(concurrency), String(connections),
                        String(bodyBytes),
                    ],
                    requests: requests, server: server)
            {
                BenchOutput.line(row.line)
                referenceRuns.append(row)
            }
        }
        let swift = BenchRow.median(swiftRuns)
        let pool = BenchRow.median(poolRuns)
        let reference = BenchRow.median(referenceRuns)
        let bodyFile = pki.directory + "/body.bin"
        if let file = fopen(bodyFile, "w") {
            let body = [UInt8](repeating: 0x78, count: bodyBytes)
            fwrite(body, 1, body.count, file)
            fclose(file)
        }
        let h2load = options.string("h2load") ?? "h2load"
        let streamsPerConnection = max(1, concurrency / connections)
        if clients.contains("h2load"),
            let row = runChild(
                name: "h2load",
                [
                    h2load, "-n", String(requests), "-c", String(connections), "-m", String(streamsPerConnection), "-t",
                    "1",
                ]
                    + (bodyBytes > 0 ? ["-d", bodyFile] : [])
                    + ["-H", "apns-topic: com.example.chat", "-H", "apns-push-type: alert", url],
                requests: requests, server: server)
        {
            BenchOutput.line(row.line)
        }
        if swift != nil || pool != nil || reference != nil { BenchOutput.line("medians of \(rounds) runs:") }
        if let swift { BenchOutput.line(swift.line) }
        if let pool { BenchOutput.line(pool.line) }
        if let reference { BenchOutput.line(reference.line) }
        if let reference, reference.clientCPUSeconds > 0 {
            for row in [swift, pool].compactMap({ $0 }) {
                let ratio = row.clientMicrosecondsPerRequest / reference.clientMicrosecondsPerRequest
                BenchOutput.line("\(row.name) CPU / C reference CPU = \(BenchRow.format(ratio, 2))x (goal ≤ 1.30x)")
            }
        }
        server.closeStdin()
        _ = server.wait()
    }

    /// `--url URL --ca FILE`: only our client, against a server started elsewhere (for profiling).
    private func runClientOnly(url: String, caFile: String) async {
        let row = await runSwiftClient(
            url: url, caFile: caFile, requests: options.int("requests", 50_000),
            concurrency: options.int("concurrency", 100),
            connections: options.int("connections", 1), bodyBytes: options.int("body-bytes", 256), server: nil,
            onLoopExecutor: options.string("executor") != "pool")
        BenchOutput.line(BenchRow.header)
        BenchOutput.line(row.line)
    }

    private func runSwiftClient(
        url: String, caFile: String, requests: Int, concurrency: Int, connections: Int, bodyBytes: Int,
        server: ChildProcess?, onLoopExecutor: Bool
    ) async -> BenchRow {
        let engine = HTTPClientConfiguration.Engine(rawValue: options.string("engine") ?? "nghttp2") ?? .nghttp2
        let configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: connections, tls: HTTPClientTLSConfiguration(caFile: caFile), engine: engine)
        let logger = Logger(
            label: "bench.client", level: options.string("log").flatMap { LogLevel(name: $0) } ?? .warning)
        let body = [UInt8](repeating: 0x78, count: bodyBytes)
        let request = HTTPClientRequest(
            method: "POST", url: url, headers: [("apns-topic", "com.example.chat"), ("apns-push-type", "alert")],
            body: body)
        let serverCPU0 = server?.cpuSecondsSoFar() ?? 0
        let cpu0 = CPUTime.processSeconds()
        let wall0 = CPUTime.wallSeconds()
        let failures =
            (try? await HTTPClient.withClient(configuration: configuration, logger: logger) { client in
                await withTaskExecutorPreference(onLoopExecutor ? client.executor : nil) {
                    await withTaskGroup(of: Int.self) { group in
                        for worker in 0..<concurrency {
                            let share = requests / concurrency + (worker < requests % concurrency ? 1 : 0)
                            group.addTask {
                                var failed = 0
                                for _ in 0..<share {
                                    do {
                                        let response = try await client.send(request)
                                        if response.status != 200 { failed += 1 }
                                    } catch {
                                        failed += 1
                                    }
                                }
                                return failed
                            }
                        }
                        return await group.reduce(0, +)
                    }
                }
            }) ?? requests
        let wall = CPUTime.wallSeconds() - wall0
        return BenchRow(
            name: "Swift \(engine.rawValue) (\(onLoopExecutor ? "loop exec" : "pool"))", requests: requests,
            failed: failures, wallSeconds: wall,
            clientCPUSeconds: CPUTime.processSeconds() - cpu0,
            serverCPUSeconds: (server?.cpuSecondsSoFar() ?? 0) - serverCPU0)
    }

    private func runChild(name: String, _ arguments: [String], requests: Int, server: ChildProcess) -> BenchRow? {
        let serverCPU0 = server.cpuSecondsSoFar()
        let wall0 = CPUTime.wallSeconds()
        guard let child = ChildProcess(arguments) else {
            BenchOutput.line("\(name): cannot start \(arguments[0])")
            return nil
        }
        child.closeStdin()
        let output = child.readAll()
        let (status, cpu) = child.wait()
        let wall = CPUTime.wallSeconds() - wall0
        let failed = Self.failedCount(in: output) ?? (status == 0 ? 0 : requests)
        return BenchRow(
            name: name, requests: requests, failed: failed, wallSeconds: wall, clientCPUSeconds: cpu,
            serverCPUSeconds: server.cpuSecondsSoFar() - serverCPU0)
    }

    /// Reads `failed=<n>` (ref.c) or `<n> failed` (h2load) from a client's output.
    private static func failedCount(in output: String) -> Int? {
        for line in output.split(separator: "\n") {
            if let range = line.range(of: "failed=") {
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            if line.hasPrefix("requests:"), let range = line.range(of: " failed") {
                let before = line[..<range.lowerBound]
                return Int(before.split(separator: " ").last ?? "")
            }
        }
        return nil
    }
}
