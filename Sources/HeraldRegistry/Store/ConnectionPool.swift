import Glibc
import HeraldCore
import HeraldSystem

/// Threads that each own one database connection, and the queue async Swift
/// hands them work through: neither sqlite3 nor libpq handles may be used
/// from two threads, and their calls block, so they stay off the
/// cooperative pool.
///
/// A job waits in the queue until a thread is free; that thread runs it with
/// its connection and resumes the caller's continuation. A thread opens its
/// connection on first use, and again after it was lost (`isUsable`): the
/// job that finds the database unreachable fails `.unavailable`, the next
/// one tries to open it again. `close()` lets the queued jobs finish; each
/// thread then frees its connection and ends.
final class ConnectionPool: Sendable {
    private let queue = JobQueue()
    private let size: Int

    /// Starts `size` threads; `open` runs on each of them to open its
    /// connection, given the operation of the job that needs it.
    init(size: Int, open: @escaping @Sendable (String) throws(RegistryError) -> any SQLConnection) throws(RegistryError)
    {
        self.size = size
        let queue = queue
        for started in 0..<size {
            do throws(RegistryError) {
                try startThread { Self.serve(queue, open: open) }
            } catch {
                queue.close(waking: started)
                throw error
            }
        }
    }

    deinit { close() }

    /// Runs `body` on one of the threads with its connection.
    func run<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLConnection) throws(RegistryError) -> T
    ) async throws(RegistryError) -> T {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<T, RegistryError>, Never>) in
            let job = Job(
                operation: operation,
                run: { connection in
                    continuation.resume(returning: Result { () throws(RegistryError) in try body(connection) })
                },
                fail: { error in continuation.resume(returning: .failure(error)) })
            if !queue.submit(job) {
                continuation.resume(
                    returning: .failure(
                        RegistryError(.internal, operation: operation, message: "the registry store is closed")))
            }
        }
        return try result.get()
    }

    /// Refuses new jobs; the threads finish the queued ones, close their connections and end.
    func close() {
        queue.close(waking: size)
    }

    /// One thread's life: take jobs until the queue is closed and empty.
    private static func serve(_ queue: JobQueue, open: @Sendable (String) throws(RegistryError) -> any SQLConnection) {
        var connection: (any SQLConnection)?
        while let job = queue.next() {
            if let current = connection, !current.isUsable {
                current.close()
                connection = nil
            }
            let usable: any SQLConnection
            if let current = connection {
                usable = current
            } else {
                do throws(RegistryError) {
                    usable = try open(job.operation)
                    connection = usable
                } catch {
                    job.fail(error)
                    continue
                }
            }
            job.run(usable)
        }
        connection?.close()
    }

    /// Starts a detached thread running `body`.
    private func startThread(_ body: @escaping @Sendable () -> Void) throws(RegistryError) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            throw RegistryError(
                .internal, operation: "open",
                message: "cannot start a database thread: \(String(cString: strerror(status)))")
        }
        pthread_detach(thread)
    }

    private final class ThreadBody {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}

/// A unit of work for a pool thread; exactly one of `run` and `fail` is called.
struct Job: Sendable {
    let operation: String
    let run: @Sendable (any SQLConnection) -> Void
    let fail: @Sendable (RegistryError) -> Void
}

/// The pool's queue: jobs oldest first under a lock, and a semaphore posted
/// once per job (and once per thread at close) that the threads sleep on.
final class JobQueue: Sendable {
    private struct State {
        var jobs: [Job] = []
        var head = 0
        var closed = false
    }

    private let state = Locked(State())
    private let wakeUp = Semaphore()

    /// Queues `job`; false once the queue is closed.
    func submit(_ job: Job) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wakeUp.post() }
        return accepted
    }

    /// The oldest job, sleeping until there is one; nil once closed and empty.
    func next() -> Job? {
        while true {
            wakeUp.wait()
            let taken: Job?? = state.withLock { state in
                guard state.head < state.jobs.count else { return state.closed ? .some(nil) : nil }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head == state.jobs.count || state.head > 1024 {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
            if let taken { return taken }
        }
    }

    /// Refuses further jobs and wakes `threads` threads to find the queue closed.
    func close(waking threads: Int) {
        let wasOpen = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        for _ in 0..<threads { wakeUp.post() }
    }
}

/// A POSIX semaphore (ThreadSanitizer follows `sem_post`/`sem_wait`), kept
/// at a fixed address as `sem_t` must be.
///
/// `@unchecked Sendable`: the pointer is set once in `init` and freed in
/// `deinit`; what it points to is only touched by `sem_post` and `sem_wait`,
/// which POSIX makes safe from any thread at once.
final class Semaphore: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func post() { sem_post(semaphore) }

    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}
