import Foundation

/// Splits an event file into events: the whole file when it is one JSON
/// object (pretty-printed `event.json`), else one JSON object per non-blank line.
struct EventFile {
    struct Event: Equatable {
        var body: [UInt8]
        /// The event's `id`, used as the AMQP `message-id`.
        var id: String?
    }

    static func parse(_ bytes: [UInt8], source: String) throws(EventInputError) -> [Event] {
        let whole = trimmed(bytes[...])
        if whole.isEmpty { throw EventInputError(source: source, line: nil, reason: "no events") }
        if let object = jsonObject(whole) { return [Event(body: Array(whole), id: object["id"] as? String)] }
        var events: [Event] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = trimmed(line)
            if text.isEmpty { continue }
            guard let object = jsonObject(text) else {
                throw EventInputError(source: source, line: index + 1, reason: "not a JSON object")
            }
            events.append(Event(body: Array(text), id: object["id"] as? String))
        }
        return events
    }

    private static func jsonObject(_ bytes: ArraySlice<UInt8>) -> [String: Any]? {
        guard bytes.first == UInt8(ascii: "{") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        var slice = bytes
        while let first = slice.first, blank.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, blank.contains(last) { slice = slice.dropLast() }
        return slice
    }
}
