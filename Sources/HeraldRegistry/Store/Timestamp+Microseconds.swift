import HeraldCore

extension Timestamp {
    /// Microseconds since the epoch, rounded down (saturating): the precision
    /// both backends keep.
    var microsecondsSinceEpoch: Int64 {
        Int64(clamping: Int128(seconds) * 1_000_000 + Int128(nanoseconds / 1000))
    }

    init(microsecondsSinceEpoch microseconds: Int64) {
        let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        self.init(seconds: seconds, nanoseconds: remainder * 1000)
    }
}
