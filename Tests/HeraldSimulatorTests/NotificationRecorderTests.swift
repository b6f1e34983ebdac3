import HeraldCore
import HeraldSimulator
import Testing

@Suite struct NotificationRecorderTests {
    private func notification(_ index: Int) -> RecordedNotification {
        RecordedNotification(
            provider: "apns", target: "t\(index)", headers: [:], payload: .object([:]),
            messageID: "m\(index)", receivedAt: Timestamp(seconds: Int64(index)))
    }

    @Test func aFullRecorderKeepsTheNewestOldestFirst() {
        let recorder = NotificationRecorder(capacity: 3)
        for index in 0..<2 { recorder.record(notification(index)) }
        #expect(recorder.notifications.map(\.messageID) == ["m0", "m1"])
        for index in 2..<7 { recorder.record(notification(index)) }
        #expect(recorder.notifications.map(\.messageID) == ["m4", "m5", "m6"])
        recorder.reset()
        recorder.record(notification(9))
        #expect(recorder.notifications.map(\.messageID) == ["m9"])
    }
}
