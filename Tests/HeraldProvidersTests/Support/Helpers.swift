import HeraldCore
import HeraldProviders

/// The message of the error decoding `text` as an event with the registered providers throws, or `nil`.
func eventError(_ text: String) -> String? {
    do {
        _ = try Event.decode(Array(text.utf8), fallbackID: "msg-1", providers: .registered)
        return nil
    } catch {
        return error.description
    }
}

/// Decodes `text` as an event with the registered providers, with `msg-1` as the fallback id.
func decodeEvent(_ text: String) throws -> Event {
    try Event.decode(Array(text.utf8), fallbackID: "msg-1", providers: .registered)
}

/// 64 hex digits: a well-formed APNs device token.
let apnsToken = String(repeating: "a1b2c3d4", count: 8)
