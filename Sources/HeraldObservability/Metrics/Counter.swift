import Synchronization

/// A monotonically increasing count (one labelled series of a counter family).
public final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    init() {}

    public func increment(by amount: Int = 1) {
        value.add(amount, ordering: .relaxed)
    }

    public var current: Int { value.load(ordering: .relaxed) }
}

/// A value that goes up and down: in-flight counts, connection state (0/1).
public final class Gauge: Sendable {
    private let value = Atomic<Int>(0)

    init() {}

    public func set(_ newValue: Int) { value.store(newValue, ordering: .relaxed) }
    public func set(_ flag: Bool) { set(flag ? 1 : 0) }
    public func increment(by amount: Int = 1) { value.add(amount, ordering: .relaxed) }
    public func decrement(by amount: Int = 1) { value.subtract(amount, ordering: .relaxed) }

    public var current: Int { value.load(ordering: .relaxed) }
}
