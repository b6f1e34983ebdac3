/// APNs settings that cannot work (unreadable key, wrong key type, bad
/// endpoint). The message names the file or setting, never key material.
public struct APNsConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { "apns: \(message)" }
}
