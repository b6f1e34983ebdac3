import Glibc
import Synchronization

/// Runs tasks on the client's own loop thread, between loop passes.
///
/// A task that sends many requests can prefer this executor
/// (`withTaskExecutorPreference(client.executor) { … }`): it then resumes on
/// the thread that completed its request and submits the next one without a
/// wake-up, so a request costs no thread hop at all. Without the preference a
/// request crosses threads twice (to the loop and back to the cooperative
/// pool), which costs a few microseconds of CPU in context switches.
///
/// - Important: Code running on this executor runs on the loop thread: it
///   must not block, or every request of the client waits.
public final class HTTPClientExecutor: TaskExecutor, Sendable {
    private let queue: SubmissionQueue
    /// `pthread_self()` of the loop thread while it runs, 0 otherwise.
    private let loopThread = Atomic<UInt>(0)

    init(queue: SubmissionQueue) { self.queue = queue }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        if !queue.enqueue(unowned) {
            // The loop has stopped: nobody would run the job here.
            globalConcurrentExecutor.enqueue(unowned)
        }
    }

    /// Whether the caller is running on the loop thread (i.e. on this executor).
    var isCurrent: Bool {
        let current = loopThread.load(ordering: .relaxed)
        return current != 0 && current == UInt(pthread_self())
    }

    func loopStarted() { loopThread.store(UInt(pthread_self()), ordering: .relaxed) }

    func loopStopped() { loopThread.store(0, ordering: .relaxed) }

    /// Runs `job` on the calling (loop) thread as this executor.
    func run(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
