import Foundation

/// Runs blocking `body` (a `poll`, a `usleep`, a synchronous read) on a thread
/// of its own and returns its result. The cooperative pool has one thread per
/// core: a test blocking one of them holds up every other suite's tasks, and
/// their timeouts then fire for no fault of the code under test.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
