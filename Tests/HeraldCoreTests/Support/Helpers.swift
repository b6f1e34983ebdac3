import HeraldCoreTestSupport
@testable import HeraldCore

/// The message of the error parsing `text` throws, or `nil` if it parses.
func parseError(_ text: String, limits: JSONLimits = .default) -> String? {
    do {
        _ = try JSONValue.parse(text, limits: limits)
        return nil
    } catch {
        return error.description
    }
}

/// The message of the error parsing `bytes` throws, or `nil` if they parse.
func parseError(_ bytes: [UInt8], limits: JSONLimits = .default) -> String? {
    do {
        _ = try JSONValue.parse(bytes, limits: limits)
        return nil
    } catch {
        return error.description
    }
}

/// The message of the error decoding `text` as an event throws, or `nil`.
func eventError(_ text: String, limits: EventLimits = .default) -> String? {
    eventError(Array(text.utf8), limits: limits)
}

func eventError(_ bytes: [UInt8], limits: EventLimits = .default) -> String? {
    do {
        _ = try Event.decode(bytes, fallbackID: "msg-1", providers: .standIns, limits: limits)
        return nil
    } catch {
        return error.description
    }
}

/// Decodes `text` as an event, with `msg-1` as the fallback id.
func decodeEvent(_ text: String) throws -> Event {
    try Event.decode(Array(text.utf8), fallbackID: "msg-1", providers: .standIns)
}

/// 64 hex digits: a well-formed APNs device token.
let apnsToken = String(repeating: "a1b2c3d4", count: 8)

/// `2026-11-30T10:00:00Z`.
let novemberThirtieth = Timestamp(seconds: 1_796_032_800)
