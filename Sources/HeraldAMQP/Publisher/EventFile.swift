import Foundation

/// Splits an event file into events: the whole file when it is one JSON
/// object (pretty-printed `event.json`), else one JSON object per non-blank line.
struct EventFile: Sendable {
    struct Event: Sendable, Equatable {
        var body: [UInt8]
        /// The event's `id`, used as the AMQP `message-id`.
        var id: String?
        /// Its line in a JSON-lines file; nil for a file holding one object.
        var line: Int?
    }

    /// - Throws: `EventInputProblems` listing every line that is not a JSON object.
    static func parse(_ bytes: [UInt8], source: String) throws(EventInputProblems) -> [Event] {
        let whole = trimmed(bytes[...])
        if whole.isEmpty {
            throw EventInputProblems(
                source: source, problems: [EventInputError(source: source, line: nil, reason: "no events")])
        }
        if let object = jsonObject(whole) { return [Event(body: Array(whole), id: object["id"] as? String, line: nil)] }
        var events: [Event] = []
        var problems: [EventInputError] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = trimmed(line)
            if text.isEmpty { continue }
            guard let object = jsonObject(text) else {
                problems.append(EventInputError(source: source, line: index + 1, reason: "not a JSON object"))
                continue
            }
            events.append(Event(body: Array(text), id: object["id"] as? String, line: index + 1))
        }
        guard problems.isEmpty else { throw EventInputProblems(source: source, problems: problems) }
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
