import Glibc
import Testing
@testable import HeraldHTTPClient

/// The wake-up protocol between producers and the loop: one eventfd write per
/// sleep of the loop, none while it is awake.
@Suite struct SubmissionQueueTests {
    private func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    @Test func aSleepingLoopIsWokenOnceAndAnAwakeOneNotAtAll() {
        let queue = SubmissionQueue()
        #expect(queue.wakeFD >= 0)
        // The eventfd path never touches the multi handle; any address marks the loop as running.
        let handle = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        defer { handle.deallocate() }
        queue.attach(handle)

        #expect(queue.take(maySleep: true).sleep)
        #expect(!readable(queue.wakeFD))
        queue.cancel(id: 1)
        #expect(readable(queue.wakeFD))
        queue.cancel(id: 2)  // already notified during this sleep
        queue.clearWake()
        #expect(!readable(queue.wakeFD))
        queue.awake()

        let (work, sleep) = queue.take(maySleep: true)
        #expect(work.cancellations == [1, 2])
        #expect(!sleep)
        queue.cancel(id: 3)  // the loop is awake: no write
        #expect(!readable(queue.wakeFD))
        #expect(queue.take(maySleep: false).work.cancellations == [3])
        _ = queue.detach()
    }
}
