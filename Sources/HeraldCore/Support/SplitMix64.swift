import HeraldSystem

/// A tiny seeded random generator: the reconnect state machine stays a value
/// type whose jitter tests can reproduce, and identifiers drawn per
/// notification (`apns-id`) do not cost a `getrandom` system call each.
///
/// Not for secrets: its output is predictable from its state.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// One `SplitMix64` for the whole process, seeded once from the system's
/// generator: unique identifiers (a 2^64 period, every 64-bit value once) at
/// the cost of a lock instead of a system call.
public final class SharedIdentifierRandom: Sendable {
    public static let shared = SharedIdentifierRandom()

    private let generator: Locked<SplitMix64>

    public init(seed: UInt64 = UInt64.random(in: .min ... .max)) {
        generator = Locked(SplitMix64(seed: seed))
    }

    /// The next 64 random bits.
    public func next() -> UInt64 { generator.withLock { $0.next() } }

    /// A number in [0, 1): a jitter draw (`EqualJitter`).
    public func unit() -> Double { generator.withLock { $0.unit() } }

    /// Two draws under one lock (a UUID's 128 bits).
    public func nextPair() -> (UInt64, UInt64) { generator.withLock { ($0.next(), $0.next()) } }
}
