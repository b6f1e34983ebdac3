import Glibc

/// A value shared between threads, reached only while holding its lock: the
/// one lock type in Herald.
///
/// It exists instead of the standard library's `Mutex` because ThreadSanitizer
/// must see every lock. On Linux `Mutex` waits with raw `futex` system calls,
/// which ThreadSanitizer does not intercept, so every value it guards would be
/// reported as a race (`scripts/test-tsan`). `Locked` holds a
/// `pthread_mutex_t`, which ThreadSanitizer follows, kept with the value in
/// one allocation. Uncontended, a `withLock` costs 67 instructions against
/// `Mutex`'s 21 (docs/fuzzing.md, "ThreadSanitizer").
///
/// The value is reached only through `withLock`; it is given at `init` as
/// `sending`, so no other reference to it stays behind.
///
/// A struct around that one allocation: its copies share the value and the
/// mutex, as references to one object would, and making one costs a single
/// allocation (a lock is made per HTTP request and per publish).
///
/// `@unchecked Sendable`: every read and write of the value holds the mutex
/// (the compiler cannot see a pthread lock), and the mutex itself lives at a
/// fixed address from `init` until the storage's `deinit`.
public struct Locked<Value>: @unchecked Sendable {
    private let buffer: Storage

    public init(_ initialValue: sending Value) {
        buffer = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in initialValue }, to: Storage.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
    }

    /// Runs `body` with the lock held and the value to read or change.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try buffer.withUnsafeMutablePointers {
            (value: UnsafeMutablePointer<Value>, mutex: UnsafeMutablePointer<pthread_mutex_t>) throws(Failure) -> Result
            in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// The value and its mutex in one allocation, so the mutex never moves.
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }
}
