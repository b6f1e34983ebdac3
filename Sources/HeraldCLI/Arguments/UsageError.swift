/// A command line that cannot be understood: printed with the command's usage, exit status 64 (EX_USAGE).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
