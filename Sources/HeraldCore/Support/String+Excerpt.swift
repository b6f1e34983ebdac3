extension String {
    /// A value as an error message quotes it: its first line, at most 60
    /// characters, so one error stays one line however long the value is (a
    /// 50 MB config value is named by its size, not echoed).
    public var truncatedForMessage: String {
        let firstLine = prefix { $0 != "\n" }
        let cut: String
        if firstLine.count > 60 {
            cut = firstLine.prefix(57) + "..."
        } else if firstLine.count < count {
            cut = firstLine + "..."
        } else {
            return self
        }
        return utf8.count > 1024 ? cut + " (\(ByteCount(utf8.count)) in all)" : cut
    }
}
