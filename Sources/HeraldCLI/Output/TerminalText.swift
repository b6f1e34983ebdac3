import HeraldCore

/// The one printer for every string the CLI writes that someone else chose:
/// a publisher's event id, routing key, headers and body, a push service's
/// reasons. It calls the log's rule (`LogfmtValue`), so a control character
/// (C0, DEL, C1: ESC, BEL, an OSC or CSI sequence) reaches the terminal as
/// an escape such as `\u001B`, never as itself.
enum TerminalText {
    /// A field of a line or table cell: as it is when it has no control
    /// character; else quoted and escaped as a logfmt value is
    /// (`"a\u001B]0;x\u0007"`), so it cannot be mistaken for a plain one.
    static func field(_ text: String) -> String {
        LogfmtValue.hasControl(text) ? LogfmtValue.quoted(text) : text
    }

    /// A message printed as received (JSON, one per line): invalid UTF-8 as
    /// U+FFFD, every control character written `\u00XX` (inside a JSON
    /// string the escape means the same character).
    static func asReceived(_ body: [UInt8]) -> String {
        LogfmtValue.escapingControls(String(decoding: body, as: UTF8.self))
    }

    /// A body shown whole (`herald dead show`): UTF-8 text as it is, its line
    /// feeds and tabs kept and every other control character written
    /// `\u00XX`; anything that is not UTF-8 as hexadecimal, 32 bytes a line.
    static func body(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) {
            return LogfmtValue.escapingControls(text, keepingLines: true)
        }
        let digits = Array("0123456789abcdef")
        var lines: [String] = ["(not UTF-8; hexadecimal)"]
        var offset = 0
        while offset < bytes.count {
            let row = bytes[offset..<min(offset + 32, bytes.count)]
            let offsetHex = String(offset, radix: 16)
            var line = String(repeating: "0", count: max(0, 8 - offsetHex.count)) + offsetHex + " "
            for byte in row {
                line.append(" ")
                line.append(digits[Int(byte >> 4)])
                line.append(digits[Int(byte & 0x0F)])
            }
            lines.append(line)
            offset += 32
        }
        return lines.joined(separator: "\n")
    }
}
