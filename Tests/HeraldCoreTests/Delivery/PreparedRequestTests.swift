import HeraldCore
import Synchronization
import Testing

/// A provider's prepared request is its own type from `prepare` to `send`,
/// also through ``AnyPushProvider``, the box every caller holds providers in.
@Suite struct PreparedRequestTests {
    /// A request type of the test's own: what `prepare` built, with a value no other request has.
    struct Built: Sendable, Equatable {
        let eventID: String
        let serial: UInt64
    }

    /// A provider that builds a `Built` and reports what its `send` was given.
    final class RecordingProvider: PushProvider {
        let provider = Provider.fcm
        let sent = Mutex<[(Built, Int, Bool)]>([])
        let serial: UInt64
        let failures: Int

        init(serial: UInt64, failures: Int = 0) {
            self.serial = serial
            self.failures = failures
        }

        func prepare(_ event: Event, for target: Target) throws(DeliveryRejection) -> PreparedNotification<Built> {
            guard event.collapseID == nil else { throw DeliveryRejection(reason: "NoCollapse", message: "refused") }
            return PreparedNotification(event: event, target: target, request: Built(eventID: event.id, serial: serial))
        }

        func send(_ notification: PreparedNotification<Built>, attempt: Int) async throws(DeliveryFailure)
            -> DeliveryResult
        {
            let count = sent.withLock { sent in
                sent.append((notification.request, attempt, notification.trace != nil))
                return sent.count
            }
            guard count > failures else { throw DeliveryFailure(reason: "busy") }
            return DeliveryResult(.delivered, reason: notification.request.eventID)
        }
    }

    private let target = Target(provider: .fcm, address: .token("t"))

    @Test func theTypedRequestReachesItsSendUnchangedThroughTheBox() async throws {
        let recording = RecordingProvider(serial: 0xfeed)
        let provider = AnyPushProvider(recording)
        var notification = try provider.prepare(Event(id: "e1", targets: [target]), for: target)
        notification.trace = DeliveryTraceRecorder(target: target)
        let result = try await provider.send(notification, attempt: 3)
        #expect(result.status == .delivered && result.reason == "e1")
        let sent = recording.sent.withLock { $0 }
        #expect(sent.count == 1)
        #expect(sent.first?.0 == Built(eventID: "e1", serial: 0xfeed))
        #expect(sent.first?.1 == 3)
        #expect(sent.first?.2 == true, "the trace set on the boxed notification reaches the provider's send")
        #expect(provider.base is RecordingProvider)
    }

    @Test func prepareAndSendPreparesOnceAndSendsAgainAsAsked() async throws {
        let recording = RecordingProvider(serial: 7, failures: 1)
        let provider = AnyPushProvider(recording)
        let event = Event(id: "e2", targets: [target])
        let sent = try await provider.prepareAndSend(event, to: target, attempt: 1) { failure, attempt in
            #expect(failure.reason == "busy")
            return attempt + 1
        }
        #expect(try sent.answer.get().reason == "e2")
        #expect(sent.attempt == 2)
        let requests = recording.sent.withLock { $0.map(\.0) }
        #expect(requests == [Built(eventID: "e2", serial: 7), Built(eventID: "e2", serial: 7)])
    }

    @Test func aRejectionIsThrownBeforeAnythingIsSent() async {
        let recording = RecordingProvider(serial: 1)
        let event = Event(id: "e3", targets: [target], collapseID: "c")
        await #expect(throws: DeliveryRejection(reason: "NoCollapse", message: "refused")) {
            _ = try await AnyPushProvider(recording).prepareAndSend(event, to: target, attempt: 1) { _, _ in nil }
        }
        #expect(recording.sent.withLock { $0.isEmpty })
    }
}
