import Foundation
@testable import HeraldHTTPClient
import HeraldHTTP2Server
import HeraldTestSupport
import Testing

@Suite struct ExecutorTests {
    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func tasksPreferringTheClientExecutorResumeOnTheLoopThread(engine: HTTPClientConfiguration.Engine) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let (onLoop, statuses) = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                try await withTaskExecutorPreference(client.executor) {
                    try await withThrowingTaskGroup(of: (Bool, Int).self) { group in
                        for index in 0..<200 {
                            group.addTask {
                                let response = try await client.send(
                                    HTTPClientRequest(
                                        url: "https://127.0.0.1:\(server.port)/\(index)", body: [UInt8(index % 256)]))
                                return (client.executor.isCurrent, response.status)
                            }
                        }
                        return try await group.reduce(into: ([Bool](), [Int]())) {
                            $0.0.append($1.0); $0.1.append($1.1)
                        }
                    }
                }
            }
        }
        #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 }, "every request answered: \(Set(statuses))")
        #expect(onLoop.allSatisfy { $0 }, "each task resumed on the client's loop thread")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func theLoopThreadCarriesItsNameForOperators(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let name = try await HTTPClient.withClient(
            configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
        ) { client in
            await withTaskExecutorPreference(client.executor) {
                // What top -H and perf show for the thread this runs on: the client's loop thread.
                (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            }
        }
        #expect(name == "herald-http\n")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func tasksOnTheClientExecutorStillFinishWhenTheClientShutsDown(engine: HTTPClientConfiguration.Engine) async throws
    {
        let client = HTTPClient(configuration: HTTPClientConfiguration(engine: engine), logger: Fixtures.logger)
        let result = try await withThrowingTaskGroup(of: HTTPClientError?.self) { group in
            group.addTask {
                try await client.run(); return nil
            }
            group.addTask {
                await withTaskExecutorPreference(client.executor) {
                    do {
                        // Nothing listens on port 1 of a closed client: either connect fails or shutdown wins.
                        client.shutdown()
                        _ = try await client.send(HTTPClientRequest(url: "https://127.0.0.1:1/x"))
                        return nil
                    } catch let error as HTTPClientError {
                        return error
                    } catch {
                        return nil
                    }
                }
            }
            var errors: [HTTPClientError] = []
            for try await case let error? in group { errors.append(error) }
            return errors
        }
        #expect(result.count == 1, "the task on the executor got an answer after shutdown: \(result)")
        #expect(result.first?.isRetryable == true, "shutdown or connect failure, both retryable: \(result)")
    }
}
