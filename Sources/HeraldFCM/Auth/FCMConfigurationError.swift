/// An FCM section that cannot become a working provider: an unreadable or
/// malformed service-account key, no project id. Names the source, never
/// the key material.
public struct FCMConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is: a file path, `service_account_json`, `project_id`.
    public let source: String
    public let message: String

    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    public var description: String { "\(source): \(message)" }
}
