import HeraldSystem
import HeraldTestSupport
import Testing

/// The tests' waits end: a body or a tool that never does fails its test
/// within its bound instead of hanging the whole run.
@Suite struct BoundedWaitTests {
    /// A wait that ignores cancellation, as a continuation nobody resumes does.
    static func stuck(until released: Locked<Bool>) async {
        while !released.withLock({ $0 }) { await Task.yield() }
    }

    @Test func withinFailsAtItsBoundEvenWhenTheBodyIgnoresCancellation() async throws {
        let released = Locked(false)
        defer { released.withLock { $0 = true } }
        let started = ContinuousClock.now
        let error = await #expect(throws: TestFailure.self) {
            try await within(.milliseconds(200), "answer") { () async -> Int? in
                await Self.stuck(until: released)
                return 1
            }
        }
        #expect(error?.description.contains("no answer within 0.2 seconds") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(20), "the failure came at the bound, not at the body's end")
    }

    @Test func withinGivesTheBodysValueOrItsError() async throws {
        #expect(try await within(.seconds(30), "value") { 7 } == 7)
        await #expect(throws: TestFailure.self) { try await within(.seconds(30), "value") { () -> Int? in nil } }
        await #expect(throws: CancellationError.self) {
            try await within(.seconds(30), "value") { () -> Int? in throw CancellationError() }
        }
    }

    @Test func awaitEndNamesWhatDidNotEnd() async throws {
        let released = Locked(false)
        defer { released.withLock { $0 = true } }
        let loop = Task<Void, any Error> { await Self.stuck(until: released) }
        let error = await #expect(throws: TestFailure.self) {
            try await awaitEnd(of: loop, "the loop", timeout: .milliseconds(200))
        }
        #expect(error?.description.contains("no end of the loop within") == true, "\(String(describing: error))")
    }

    @Test func aToolThatOutlivesItsBoundIsKilledAndNamed() async throws {
        let started = ContinuousClock.now
        let error = await #expect(throws: TestFailure.self) {
            try await runTool("/bin/sh", ["-c", "echo waiting; exec sleep 600"], timeout: .milliseconds(500))
        }
        let message = error?.description ?? ""
        #expect(message.contains("/bin/sh") && message.contains("did not end within 0.5 seconds"), "\(message)")
        #expect(message.contains("waiting"), "what it wrote: \(message)")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aToolWithinItsBoundGivesItsOutputAndStatus() async throws {
        let run = try await runTool("/bin/sh", ["-c", "echo done; exit 3"])
        #expect(run.status == 3)
        #expect(run.output == "done\n")
    }
}
