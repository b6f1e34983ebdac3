import HeraldHTTP2Server

/// Runs `server` for the duration of `body`, then stops it abruptly.
public func withRunning<R: Sendable>(_ server: HTTP2Server, _ body: () async throws -> R) async throws -> R {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
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
