import HeraldCore
import HeraldSystem

/// A value every test of a process shares (a throwaway PKI, an RSA key), made
/// once, on a thread of its own, by the first test that asks for it.
///
/// A lazily made `static let` blocks each thread that reads it while the first
/// reader makes it. Making these takes seconds on a loaded two-core machine
/// (openssl processes, RSA key generation), and the waiting threads are the
/// cooperative pool's: every other suite stops with them and its timeouts fire.
/// Awaiting ``get()`` suspends instead, and the making runs beside the pool.
public final class SharedFixture<Value: Sendable, Failure: Error>: Sendable {
    private let make: @Sendable () throws(Failure) -> Value
    private let task = Locked<Task<Result<Value, Failure>, Never>?>(nil)

    public init(_ make: @escaping @Sendable () throws(Failure) -> Value) {
        self.make = make
    }

    /// The value, made on the first call; a failure to make it is every caller's.
    public func get() async throws(Failure) -> Value {
        let make = self.make
        let task = self.task.withLock { task in
            if let task { return task }
            let started = Task {
                await onOwnThread { Result { () throws(Failure) -> Value in try make() } }
            }
            task = started
            return started
        }
        return try await task.value.get()
    }
}
