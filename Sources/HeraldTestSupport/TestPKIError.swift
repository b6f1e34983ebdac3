/// Why a throwaway certificate could not be made: the step and what
/// `openssl` printed, so a failing test says what went wrong.
public struct TestPKIError: Error, Sendable, CustomStringConvertible {
    public let step: String
    public let output: String

    public init(step: String, output: String) {
        self.step = step
        self.output = output
    }

    public var description: String { "test PKI: \(step) failed: \(output)" }
}
