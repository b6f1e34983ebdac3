/// Bounds on what the JSON parser accepts, so a hostile or broken message
/// costs bounded memory and time and can never exhaust the stack.
public struct JSONLimits: Sendable, Hashable {
    /// The most containers (arrays and objects) that may be nested; a scalar
    /// at the top is depth 0, `[[1]]` is depth 2.
    ///
    /// - Important: values above ``maxDepthCeiling`` are lowered to it.
    ///   Parsing itself never recurses, but comparing, hashing, serializing
    ///   and freeing a value do, so a value's depth must stay modest.
    public var maxDepth: Int {
        didSet { maxDepth = Self.clampDepth(maxDepth) }
    }

    /// The largest input, in bytes.
    public var maxBytes: Int

    /// The deepest nesting any limit may allow.
    public static let maxDepthCeiling = 1_000

    /// 64 levels, 1 MiB.
    public static let `default` = JSONLimits(maxDepth: 64, maxBytes: 1 << 20)

    public init(maxDepth: Int, maxBytes: Int) {
        self.maxDepth = Self.clampDepth(maxDepth)
        self.maxBytes = maxBytes
    }

    private static func clampDepth(_ depth: Int) -> Int {
        min(max(depth, 0), maxDepthCeiling)
    }
}
