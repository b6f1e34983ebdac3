/// The simulator's TLS material could not be made or written: the step and
/// OpenSSL's (or the file system's) explanation.
public struct SimulatorTLSError: Error, Sendable, Equatable, CustomStringConvertible {
    public let step: String
    public let detail: String

    public init(_ step: String, _ detail: String) {
        self.step = step
        self.detail = detail
    }

    public var description: String { "simulator TLS: \(step): \(detail)" }
}
