import Foundation

/// The one rule for channel names, wherever one comes in (an event's channel
/// target, a registry command, `herald registry`, a store call): 1 to
/// ``ChannelTarget/maxNameBytes`` bytes of UTF-8, in Unicode NFC, without
/// control characters (General Category Cc: C0, DEL, C1) or format
/// characters (Cf: bidi controls such as U+202E, zero-width characters such
/// as U+200B, U+FEFF). Such characters make two names that look alike (or
/// that a terminal shows reversed) different channels; NFC makes `é` typed
/// as one scalar and as `e` + U+0301 the same channel, stored as the same bytes.
public enum ChannelName {
    /// `name` as the channel it stands for: normalised to NFC, then checked.
    ///
    /// - Returns: the stored spelling, or why `name` is no channel name (a
    ///   message to put after the field's name).
    public static func canonical(_ name: String) -> Result<String, Problem> {
        let normalized = name.precomposedStringWithCanonicalMapping
        if let problem = problem(with: normalized) { return .failure(problem) }
        return .success(normalized)
    }

    /// Why `name`, as stored, is no channel name (not NFC included); nil when it is one.
    public static func problem(with name: String) -> Problem? {
        let maxBytes = ChannelTarget.maxNameBytes
        if name.isEmpty { return Problem("is empty; a channel name has 1 to \(maxBytes) bytes") }
        if let index = name.unicodeScalars.firstIndex(where: isForbidden) {
            let scalar = name.unicodeScalars[index]
            let code = String(scalar.value, radix: 16, uppercase: true)
            let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
            let offset = name.utf8.distance(from: name.utf8.startIndex, to: index)
            // Not quoted: the name would carry the character into logs.
            return scalar.properties.generalCategory == .format
                ? Problem(
                    "has a format character (U+\(padded)) at byte \(offset); format characters (bidi controls, zero-width) are not allowed"
                )
                : Problem("has a control character (U+\(padded)) at byte \(offset); control characters are not allowed")
        }
        if name.utf8.count > maxBytes {
            return Problem("\"\(name.truncatedForMessage)\" is \(name.utf8.count) bytes, over the limit of \(maxBytes)")
        }
        if name.precomposedStringWithCanonicalMapping.utf8.elementsEqual(name.utf8) == false {
            return Problem("\"\(name.truncatedForMessage)\" is not in Unicode NFC; give it precomposed (NFC)")
        }
        return nil
    }

    /// Control (Cc) and format (Cf) characters.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format: true
        default: false
        }
    }

    /// What is wrong with a channel name, worded to follow the name of the
    /// field that held it (`channels[1]: has a control character …`).
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        init(_ message: String) { self.message = message }
        public var description: String { message }
    }
}
