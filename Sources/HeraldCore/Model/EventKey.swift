/// What `duplicate_window` claims (docs/traffic.md): an event's `id` within
/// the app the event names. Two apps' events with one id are two events;
/// an event that names no app is keyed under the empty app.
public struct EventKey: Hashable, Sendable, CustomStringConvertible {
    /// The event's own `app` (as published, before routing), or "" when it names none.
    public let app: String
    public let id: String

    public init(app: String?, id: String) {
        self.app = app ?? ""
        self.id = id
    }

    /// `'evt-7f3a' of app 'chat'`, for messages (both cut to a readable length).
    public var description: String {
        "'\(id.truncatedForMessage)'" + (app.isEmpty ? " (no app)" : " of app '\(app.truncatedForMessage)'")
    }
}
