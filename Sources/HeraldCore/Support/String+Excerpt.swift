import HeraldSystem

extension String {
    /// A value as an error message quotes it: its first line, at most 60
    /// characters, so one error stays one line however long the value is (a
    /// 50 MB config value is named by its size, not echoed).
    public var truncatedForMessage: String {
        // Looks at no more than 61 characters: the value may be a body of megabytes.
        var end = startIndex
        var characters = 0
        while end < endIndex, characters <= 60, self[end] != "\n" {
            formIndex(after: &end)
            characters += 1
        }
        let cut: String
        if characters > 60 {
            cut = prefix(57) + "..."
        } else if end < endIndex {
            cut = self[..<end] + "..."
        } else {
            return self
        }
        return utf8.count > 1024 ? cut + " (\(ByteCount(utf8.count)) in all)" : cut
    }
}
