import HeraldHTTP2Server

/// Runs `server` for the duration of `body`, then stops it abruptly.
///
/// `body` starts only once the server's loop thread is started. The child
/// task that calls `run()` needs a thread of the cooperative pool, and while
/// other tests hold both of them (a blocking `openssl` run, say) an external
/// client started at once would sit in the listen backlog past its own
/// timeout (seen: nghttp's 10 s SETTINGS timeout in a full CI run).
public func withRunning<R: Sendable>(_ server: HTTP2Server, _ body: () async throws -> R) async throws -> R {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        _ = await eventually(timeout: .seconds(60), every: .milliseconds(1)) { server.hasStarted }
        do {
            let result = try await body()
            server.shutdown(graceful: false)
            try await group.waitForAll()
            return result
        } catch {
            server.shutdown(graceful: false)
            try? await group.waitForAll()
            throw error
        }
    }
}
