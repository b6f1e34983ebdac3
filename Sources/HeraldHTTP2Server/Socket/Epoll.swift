import CHeraldShim
import Glibc

/// Owns an epoll instance; level-triggered registrations keyed by a 64-bit id.
final class Epoll {
    let fd: Int32
    private var events: [epoll_event]

    init(capacity: Int = 256) throws(HTTP2ServerError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw .system(call: "epoll_create1", errno: errno) }
        self.fd = fd
        events = Array(repeating: epoll_event(), count: capacity)
    }

    deinit { Glibc.close(fd) }

    func add(fd target: Int32, id: UInt64, writable: Bool = false) -> Bool {
        control(EPOLL_CTL_ADD, fd: target, id: id, readable: true, writable: writable)
    }

    /// Changes what `target` is watched for (hang-ups and errors are always reported).
    func modify(fd target: Int32, id: UInt64, readable: Bool = true, writable: Bool) -> Bool {
        control(EPOLL_CTL_MOD, fd: target, id: id, readable: readable, writable: writable)
    }

    func remove(fd target: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, target, &event)
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever); returns how many registrations are ready.
    func wait(timeoutMilliseconds: Int32) -> Int {
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(fd, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
        }
        return max(0, Int(count))
    }

    /// The `index`-th ready registration of the last `wait`.
    func event(at index: Int) -> (id: UInt64, readable: Bool, writable: Bool, hangup: Bool) {
        let event = events[index]
        let flags = event.events
        return (
            event.data.u64,
            flags & EPOLLIN.rawValue != 0,
            flags & EPOLLOUT.rawValue != 0,
            flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
        )
    }

    private func control(_ operation: Int32, fd target: Int32, id: UInt64, readable: Bool, writable: Bool) -> Bool {
        var event = epoll_event()
        event.events = (readable ? EPOLLIN.rawValue : 0) | (writable ? EPOLLOUT.rawValue : 0)
        event.data.u64 = id
        return epoll_ctl(fd, operation, target, &event) == 0
    }
}
