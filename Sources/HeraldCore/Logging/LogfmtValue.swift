/// The one rule for writing a string Herald did not choose (an event id, a
/// header, a provider's reason) where a person reads it: a logfmt log line
/// and the CLI's output (`herald tail`, `herald dead`). A control character
/// — C0, DEL or C1 — never reaches the terminal as itself, so the text cannot
/// move the cursor, retitle the window (OSC), ring the bell or hide what
/// follows it.
public enum LogfmtValue {
    /// Whether `scalar` is a control character: C0 (which JSON escapes), DEL
    /// and C1 (which it does not, though terminals act on them: `0x9B` starts
    /// an escape sequence like ESC `[`).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` has a control character.
    public static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// `text` as a logfmt value: as it is when it is a plain word; quoted
    /// otherwise (empty, or with a blank, `=`, `"`, `\` or a control character).
    public static func rendered(_ text: String) -> String {
        let needsQuotes =
            text.isEmpty
            || text.unicodeScalars.contains(where: { scalar in
                scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || isControl(scalar)
                    || scalar.properties.isWhitespace
            })
        return needsQuotes ? quoted(text) : text
    }

    /// `text` quoted as a JSON string, with DEL and C1 written as `\u00XX`
    /// too (JSON escapes only C0): `"a\u001B]0;x\u0007"`.
    public static func quoted(_ text: String) -> String {
        escapingInvisibleControls(JSONValue.string(text).jsonString)
    }

    /// `text` with every control character (C0, DEL and C1) written as
    /// `\u00XX`: for JSON printed as received (a control character can stand
    /// only inside its strings, where the escape means the same; a line
    /// break between its tokens no longer splits the line). With
    /// `keepingLines`, line feeds and tabs stay (a multi-line text shown whole).
    public static func escapingControls(_ text: String, keepingLines: Bool = false) -> String {
        func escapes(_ scalar: Unicode.Scalar) -> Bool {
            isControl(scalar) && !(keepingLines && (scalar == "\n" || scalar == "\t"))
        }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if escapes(scalar) { out.append(contentsOf: escape(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// `text` (JSON or a quoted logfmt value, where these characters can
    /// only stand inside strings) with DEL and C1 controls written as
    /// `\u00XX`, so a value from an event cannot drive the terminal or log
    /// viewer that shows the line.
    public static func escapingInvisibleControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x7F && $0.value <= 0x9F }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `\u001B`: a control character as JSON writes one.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
