/// The answers a loop pass produced, handed to the cooperative pool together.
///
/// A waiter running on `HTTPClientExecutor` is resumed at once (its job comes
/// back to the loop's own queue); the others are resumed from one job on the
/// pool rather than one by one from the loop thread: each resume from there
/// would poke an idle pool thread awake (a futex wake and, often, a
/// preemption of the loop); measured, one job per pass cuts context switches
/// about 4×. Shared by both engines' loops.
struct CompletionBatch {
    private var finished: [(PendingRequest, Result<HTTPClientResponse, HTTPClientError>)] = []

    var isEmpty: Bool { finished.isEmpty }

    mutating func add(_ pending: PendingRequest, _ result: Result<HTTPClientResponse, HTTPClientError>) {
        if pending.resumesOnLoop {
            pending.finish(result)
        } else {
            finished.append((pending, result))
        }
    }

    /// Resumes this pass's waiters from one pool job; a lone answer (the
    /// usual case at moderate load) is resumed from here, which enqueues its
    /// task on the pool just as the job would, without the job.
    mutating func deliver() {
        guard !finished.isEmpty else { return }
        if finished.count == 1 {
            let (pending, result) = finished[0]
            finished.removeAll(keepingCapacity: true)
            pending.finish(result)
            return
        }
        let batch = finished
        finished.removeAll(keepingCapacity: true)
        Task.detached {
            for (pending, result) in batch { pending.finish(result) }
        }
    }
}
