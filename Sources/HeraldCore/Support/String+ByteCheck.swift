extension String {
    /// Whether every UTF-8 byte passes `check`, read from the string's
    /// contiguous storage: the validators run this over every token of every
    /// target, where iterating `utf8` byte by byte cost a few dozen
    /// instructions per byte (callgrind, `herald-bench pipeline`).
    @inlinable
    public func everyByte(_ check: (UInt8) -> Bool) -> Bool {
        var text = self
        return text.withUTF8 { bytes in bytes.allSatisfy(check) }
    }
}
