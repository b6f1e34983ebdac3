import HeraldCore
import HeraldCoreTestSupport
import HeraldPipeline
import Testing

@Suite struct RetryTests {
    let policy = RetryPolicy(maxAttempts: 5, delays: [.seconds(5), .seconds(30), .seconds(120), .seconds(600)])

    @Test func delaysFollowTheTiersThenTheLast() {
        #expect(policy.decision(afterFailedAttempt: 1, unit: 0.99) == .retry(attempt: 2, delay: .seconds(5)))
        #expect(policy.decision(afterFailedAttempt: 2, unit: 0.99) == .retry(attempt: 3, delay: .seconds(30)))
        #expect(policy.decision(afterFailedAttempt: 4, unit: 0.99) == .retry(attempt: 5, delay: .seconds(600)))
        #expect(policy.decision(afterFailedAttempt: 5) == .exhausted)
        let long = RetryPolicy(maxAttempts: 10, delays: [.seconds(5)])
        #expect(long.decision(afterFailedAttempt: 8, unit: 0.99) == .retry(attempt: 9, delay: .seconds(5)))
        #expect(long.decision(afterFailedAttempt: 8, unit: 0) == .retry(attempt: 9, delay: .milliseconds(2500)))
    }

    @Test func jitterSlotsDivideHalfTheDelayEvenly() {
        #expect(RetryPolicy.slots(of: .seconds(30)) == [.seconds(15), .seconds(20), .seconds(25), .seconds(30)])
        let ms: [Int64] = [2500, 3333, 4166, 5000]
        #expect(RetryPolicy.slots(of: .seconds(5)) == ms.map { Duration.milliseconds($0) })
        let all: [Int64] = [5000, 6666, 8333, 10_000, 13_333, 16_666, 20_000]
        let policy = RetryPolicy(maxAttempts: 3, delays: [.seconds(10), .seconds(20)])
        #expect(policy.queueDelays == all.map { Duration.milliseconds($0) })
    }

    /// Many targets failing at once draw delays that are not all equal, each
    /// within [delay/2, delay] and each one of the delay queues.
    @Test func manyFailuresAtOnceGetJitteredDelaysWithinTheBounds() {
        for attempt in 1...4 {
            let tier = policy.delays[attempt - 1]
            var drawn: [Duration] = []
            for _ in 0..<200 {
                guard case .retry(let next, let delay) = policy.decision(afterFailedAttempt: attempt) else {
                    Issue.record("attempt \(attempt) should retry")
                    return
                }
                #expect(next == attempt + 1)
                drawn.append(delay)
            }
            #expect(drawn.allSatisfy { $0 >= tier / 2 && $0 <= tier }, "\(drawn)")
            #expect(drawn.allSatisfy { policy.queueDelays.contains($0) })
            #expect(Set(drawn).count == RetryPolicy.jitterSlots, "\(Set(drawn))")
        }
    }

    @Test func retryAfterWinsWhenLongerRoundedUpToATier() {
        #expect(
            policy.decision(afterFailedAttempt: 1, retryAfter: .seconds(2), unit: 0.99)
                == .retry(attempt: 2, delay: .seconds(5)))
        #expect(
            policy.decision(afterFailedAttempt: 1, retryAfter: .seconds(60), unit: 0.99)
                == .retry(attempt: 2, delay: .seconds(120)))
        #expect(
            policy.decision(afterFailedAttempt: 1, retryAfter: .seconds(3600), unit: 0)
                == .retry(attempt: 2, delay: .seconds(600)))
        // The jitter never comes back sooner than Retry-After asked.
        #expect(
            policy.decision(afterFailedAttempt: 1, retryAfter: .seconds(100), unit: 0)
                == .retry(attempt: 2, delay: .seconds(100)))
        #expect(
            policy.decision(afterFailedAttempt: 1, retryAfter: .seconds(101), unit: 0)
                == .retry(attempt: 2, delay: .seconds(120)))
    }

    @Test func oneAttemptMeansNoRetry() {
        #expect(RetryPolicy(maxAttempts: 1, delays: []).decision(afterFailedAttempt: 1) == .exhausted)
    }

    @Test func retryBodyKeepsFieldsAndOnlyTheFailedTargets() throws {
        let original = Array(
            #"{"provider": "fcm", "token": "a", "app": "chat", "notification": {"title": "Hi"}, "context": {"k": 1}}"#
                .utf8)
        let body = try #require(
            RetryBody.make(
                original: original, eventID: "amqp-7",
                targets: [Target(provider: .fcm, address: .token("a"))], providers: .standIns))
        let event = try Event.decode(body, fallbackID: "other", providers: .standIns)
        #expect(event.id == "amqp-7")
        #expect(event.targets == [Target(provider: .fcm, address: .token("a"))])
        #expect(event.notification?.title == "Hi")
        #expect(event.context == ["k": 1])
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"app":"chat","notification":{"title":"Hi"},"context":{"k":1},"id":"amqp-7","targets":[{"provider":"fcm","token":"a"}]}"#
        )
    }

    /// A FID target is written back as `{"provider":"fcm","fid":…}`, and a
    /// FID shorthand is removed like a token shorthand, so the retried event
    /// decodes to the same targets.
    @Test func retryBodyWritesFIDTargetsBack() throws {
        let fid = "cR1Zm2QmSSmvP3bqAbcDef"
        let original = Array(#"{"provider": "android", "fid": "\#(fid)", "app": "chat"}"#.utf8)
        let targets = [Target(provider: .fcm, address: .fid(fid))]
        let body = try #require(
            RetryBody.make(original: original, eventID: "e", targets: targets, providers: .standIns))
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"app":"chat","id":"e","targets":[{"provider":"fcm","fid":"\#(fid)"}]}"#)
        #expect(try Event.decode(body, fallbackID: "other", providers: .standIns).targets == targets)
    }

    @Test func retryBodyOfGarbageIsNil() {
        #expect(RetryBody.make(original: Array("[1]".utf8), eventID: "x", targets: [], providers: .standIns) == nil)
    }
}
