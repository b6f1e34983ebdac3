import HeraldCore
import HeraldFCM
import HeraldHTTPClient

/// An `FCMProvider` for tests that never send (validation, message
/// building): its HTTP client is never started.
enum OfflineProvider {
    static func with(_ body: (FCMProvider) throws -> Void) throws {
        let logger = Logger(label: "test", level: .critical, sink: MemoryLogSink())
        let provider = FCMProvider(
            projectID: TestKeys.projectID, account: try TestKeys.account(tokenURI: "https://127.0.0.1:1/token"),
            endpoint: "https://127.0.0.1:1", httpClient: HTTPClient(logger: logger), logger: logger,
            now: { Timestamp(seconds: 1_796_032_800) })
        try body(provider)
    }
}
