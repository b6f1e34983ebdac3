/// A test's own failure, with what went wrong: a script that failed, a
/// delivery that never came, a wait that timed out.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
