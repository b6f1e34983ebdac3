import HeraldAMQP
import Testing

@Suite("Reconnect back-off (no sockets)")
struct ReconnectStateMachineTests {
    let t0 = ContinuousClock.now
    let policy = BackoffPolicy(
        initial: .milliseconds(100), maximum: .seconds(2), multiplier: 2, stableAfter: .seconds(10),
        maxAttempts: 4)
    let refused = AMQPError(.library, operation: "connect", detail: "connection refused", isRetryable: true)

    @Test func delayDoublesUpToTheMaximumWithEqualJitter() {
        #expect(policy.delay(attempt: 0, unit: 0) == .milliseconds(50))
        #expect(policy.delay(attempt: 0, unit: 1) == .milliseconds(100))
        #expect(policy.delay(attempt: 3, unit: 1) == .milliseconds(800))
        #expect(policy.delay(attempt: 3, unit: 0) == .milliseconds(400))
        #expect(policy.delay(attempt: 30, unit: 1) == .seconds(2))
        #expect(policy.delay(attempt: 30, unit: 0.5) == .milliseconds(1500))
    }

    @Test func startConnectsAtOnce() {
        var machine = ReconnectStateMachine(policy: policy, seed: 1)
        let firstStart = machine.start()
        #expect(firstStart == .connect)
        #expect(machine.state == .connecting(attempt: 0))
        let secondStart = machine.start()
        #expect(secondStart == .none)
    }

    @Test func failedConnectWaitsWithinTheJitterBandThenConnects() throws {
        var machine = ReconnectStateMachine(policy: policy, seed: 7)
        _ = machine.start()
        guard case .wait(let until) = machine.connectFailed(at: t0, error: refused) else {
            Issue.record("expected a wait")
            return
        }
        #expect(until >= t0 + .milliseconds(50) && until <= t0 + .milliseconds(100))
        let early = machine.backOffElapsed(at: t0 + .milliseconds(10))
        #expect(early == .wait(until: until))
        let due = machine.backOffElapsed(at: until)
        #expect(due == .connect)
        #expect(machine.state == .connecting(attempt: 1))
    }

    @Test func consecutiveFailuresGrowTheDelayAndFinallyGiveUp() throws {
        var machine = ReconnectStateMachine(policy: policy, seed: 3)
        _ = machine.start()
        var now = t0
        var delays: [Duration] = []
        for _ in 0..<3 {
            guard case .wait(let until) = machine.connectFailed(at: now, error: refused) else {
                Issue.record("expected a wait")
                return
            }
            delays.append(until - now)
            now = until
            let next = machine.backOffElapsed(at: now)
            #expect(next == .connect)
        }
        #expect(delays[0] <= .milliseconds(100) && delays[1] >= .milliseconds(100) && delays[2] >= .milliseconds(200))
        guard case .stop(let failure?) = machine.connectFailed(at: now, error: refused) else {
            Issue.record("expected to give up after 4 attempts")
            return
        }
        #expect(failure.code == .gaveUp)
        #expect(failure.detail.contains("4 attempts; last: connect: library error: connection refused"))
        #expect(machine.state == .stopped)
    }

    @Test func nonRetryableConnectFailureStopsWithThatError() {
        var machine = ReconnectStateMachine(policy: policy, seed: 1)
        _ = machine.start()
        let denied = AMQPError(
            .connectionClosed, operation: "connection.open", detail: "ACCESS_REFUSED", replyCode: 403,
            isRetryable: false)
        let denial = machine.connectFailed(at: t0, error: denied)
        #expect(denial == .stop(failure: denied))
    }

    @Test func lostConnectionTearsDownAndBacksOffFromTheStartAfterAStableSpell() {
        var machine = ReconnectStateMachine(policy: policy, seed: 5)
        _ = machine.start()
        _ = machine.connectFailed(at: t0, error: refused)
        _ = machine.backOffElapsed(at: t0 + .seconds(1))
        _ = machine.connectSucceeded(at: t0 + .seconds(1))
        let lost = machine.connectionLost(at: t0 + .seconds(60))
        guard case .tearDownAndWait(let until) = lost else {
            Issue.record("expected tear-down, got \(lost)")
            return
        }
        #expect(until - (t0 + .seconds(60)) <= .milliseconds(100), "a stable connection restarts the back-off")
    }

    @Test func flappingConnectionBacksOffLongerEachTime() {
        var machine = ReconnectStateMachine(policy: policy, seed: 9)
        _ = machine.start()
        var now = t0
        var waits: [Duration] = []
        for _ in 0..<4 {
            _ = machine.connectSucceeded(at: now)
            now += .milliseconds(500)
            guard case .tearDownAndWait(let until) = machine.connectionLost(at: now) else {
                Issue.record("expected tear-down")
                return
            }
            waits.append(until - now)
            now = until
            let afterFlap = machine.backOffElapsed(at: now)
            #expect(afterFlap == .connect)
        }
        #expect(waits[3] >= .milliseconds(400), "fourth flap waits at least half of 800 ms, waited \(waits[3])")
    }

    @Test func shutdownStopsFromAnyStateOnce() {
        var machine = ReconnectStateMachine(policy: policy, seed: 1)
        _ = machine.start()
        _ = machine.connectFailed(at: t0, error: refused)
        let firstStop = machine.shutdownRequested()
        #expect(firstStop == .stop(failure: nil))
        let secondStop = machine.shutdownRequested()
        #expect(secondStop == .none)
        let afterStop = machine.backOffElapsed(at: t0 + .seconds(5))
        #expect(afterStop == .none)
    }
}
