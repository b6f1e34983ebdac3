import HeraldCore
import HeraldSystem
import Synchronization

/// A counter shared by concurrent test tasks.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    func increment() { storage.add(1, ordering: .relaxed) }
    var value: Int { storage.load(ordering: .relaxed) }
}

/// A set of strings shared by concurrent test tasks.
final class LockedSet: Sendable {
    private let storage = Locked<Set<String>>([])

    func insert(_ value: String) { storage.withLock { _ = $0.insert(value) } }
    var values: Set<String> { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
}
