import HeraldCore

/// Generates `apns-id` values: random (version 4) UUIDs in lowercase, the form
/// APNs documents.
public enum APNsID {
    /// A new id from the process-wide `SharedIdentifierRandom` (no system call:
    /// this runs per notification; an id only has to be unique, not secret).
    public static func random() -> String {
        let (high, low) = SharedIdentifierRandom.shared.nextPair()
        return uuid(high: high, low: low)
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> String {
        uuid(high: generator.next(), low: generator.next())
    }

    private static func uuid(high: UInt64, low: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (8 * i))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `true` for a canonical UUID (8-4-4-4-12 hex digits, either case).
    public static func isValid(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.utf8.allSatisfy(\.isHexDigit) }
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
