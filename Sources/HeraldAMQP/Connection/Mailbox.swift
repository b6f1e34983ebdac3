import Glibc
import HeraldCore
import HeraldSystem

/// The queue between async Swift and the connection thread, with a self-pipe
/// that wakes the thread from `poll` when a command arrives (Glibc's Swift
/// module does not expose eventfd).
///
/// The pipe is written only when the thread is (about to be) asleep, so a
/// burst of publishes costs one wake-up, not one syscall each.
final class Mailbox: Sendable {
    private struct State {
        var commands: [Command] = []
        var sleeping = false
        var closed = false
    }

    private let state = Locked(State())
    private let readFD: Int32
    private let writeFD: Int32

    init() throws(AMQPError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw AMQPError(.library, operation: "pipe", detail: String(cString: strerror(errno)), isRetryable: false)
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        Glibc.close(readFD)
        Glibc.close(writeFD)
    }

    /// Queues `command`; false when the thread has exited (the caller fails it).
    func submit(_ command: Command) -> Bool {
        let wake: Bool? = state.withLock { state in
            if state.closed { return nil }
            state.commands.append(command)
            let wasSleeping = state.sleeping
            state.sleeping = false
            return wasSleeping
        }
        guard let wake else { return false }
        if wake {
            var one: UInt8 = 1
            _ = Glibc.write(writeFD, &one, 1)
        }
        return true
    }

    /// Returns commands `drain` took but the connection thread did not run to
    /// the front of the queue, for its next `drain` (only that thread calls
    /// this, so the mailbox is not closed yet).
    func putBack(_ commands: ArraySlice<Command>) {
        guard !commands.isEmpty else { return }
        state.withLock { $0.commands.insert(contentsOf: commands, at: 0) }
    }

    /// Takes every queued command, oldest first.
    func drain() -> [Command] {
        state.withLock { state in
            defer { state.commands.removeAll(keepingCapacity: true) }
            return state.commands
        }
    }

    /// Why `wait` returned.
    enum Wake: Equatable {
        /// Commands were already queued: it did not sleep (nor look at the socket).
        case commandsPending
        /// Woken by a command only: the socket has nothing to read.
        case commandsOnly
        /// The socket is readable (commands may have arrived too).
        case socketReadable
        /// `timeout` passed.
        case timeout
        /// After a nap: neither commands nor frames arrived (no read needed).
        case nothingNew
    }

    /// Sleeps until a command arrives, `socket` is readable, or `timeout` passes.
    @discardableResult
    func wait(socket: Int32?, timeout: Duration) -> Wake {
        let mustSleep = state.withLock { state -> Bool in
            guard state.commands.isEmpty else { return false }
            state.sleeping = true
            return true
        }
        guard mustSleep else { return .commandsPending }
        var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        if let socket, socket >= 0 { fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        let (seconds, attoseconds) = timeout.components
        let ms = Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        let ready = poll(&fds, nfds_t(fds.count), ms)
        var wake = Wake.timeout
        if ready > 0 {
            // Errors and hang-ups count as readable: reading is what reports them.
            wake = fds.count > 1 && fds[1].revents != 0 ? .socketReadable : .commandsOnly
        } else if ready < 0 {
            wake = .socketReadable  // EINTR and the like: let the caller look
        }
        if fds[0].revents != 0 {
            // 64 bytes on the stack: this runs every time the thread wakes. A read
            // that returns less than asked has emptied the pipe: no second read
            // to learn that from EAGAIN (half the reads at moderate rates).
            var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            let size = MemoryLayout.size(ofValue: scratch)
            while withUnsafeMutableBytes(of: &scratch, { Glibc.read(readFD, $0.baseAddress, $0.count) }) == size {}
        }
        state.withLock { $0.sleeping = false }
        return wake
    }

    /// Naps for `duration` without asking producers to wake the thread (the
    /// loop is paced, `LoopPacing`), then looks at the socket and the queue.
    func nap(_ duration: Duration, socket: Int32?) -> Wake {
        LoopPacing.sleep(duration)
        if let socket, socket >= 0 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 0) != 0 { return .socketReadable }
        }
        return state.withLock { $0.commands.isEmpty } ? .nothingNew : .commandsOnly
    }

    /// Refuses further commands and returns those still queued.
    func close() -> [Command] {
        state.withLock { state in
            state.closed = true
            defer { state.commands.removeAll() }
            return state.commands
        }
    }
}
