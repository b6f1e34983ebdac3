/// Test vectors are written in hex; this reads them.
enum Hex {
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8).compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        precondition(digits.count % 2 == 0, "odd number of hex digits in a test vector")
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}
