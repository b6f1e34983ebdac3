/// Simulator settings that cannot be used: which setting and why (never key material).
public struct SimulatorSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
