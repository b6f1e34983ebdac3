/// `apns-id` values: the simulator generates lowercase v4 UUIDs, the canonical
/// form Apple documents, and accepts a client's UUID in either case.
enum APNsSimulatorID {
    static func random() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }

    static func isValid(_ text: String) -> Bool {
        // 8-4-4-4-12 hexadecimal digits, checked byte by byte (once per simulated request).
        let utf8 = text.utf8
        guard utf8.count == 36 else { return false }
        for (offset, byte) in utf8.enumerated() {
            let dash = offset == 8 || offset == 13 || offset == 18 || offset == 23
            guard dash ? byte == UInt8(ascii: "-") : byte.isHexDigit else { return false }
        }
        return true
    }
}
