import CNGHTTP2

/// Lays out `:status` and the response headers in one byte buffer (names
/// lower-cased) and exposes them as the `nghttp2_nv` array nghttp2 copies.
struct HeaderBlock {
    private var bytes: [UInt8] = []
    private var ranges: [(name: Range<Int>, value: Range<Int>)] = []

    init(status: Int, headers: [(name: String, value: String)]) {
        bytes.reserveCapacity(64)
        ranges.reserveCapacity(headers.count + 1)
        append(name: ":status".utf8, value: String(status).utf8)
        for header in headers {
            append(name: header.name.utf8, value: header.value.utf8)
        }
    }

    private mutating func append(name: String.UTF8View, value: String.UTF8View) {
        let nameStart = bytes.count
        for byte in name { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
        let valueStart = bytes.count
        bytes.append(contentsOf: value)
        ranges.append((nameStart..<valueStart, valueStart..<bytes.count))
    }

    /// Calls `body` with the `nghttp2_nv` array; it is valid only during the call.
    mutating func withNameValues<R>(_ body: (UnsafePointer<nghttp2_nv>?, Int) -> R) -> R {
        let ranges = self.ranges
        return bytes.withUnsafeMutableBufferPointer { storage in
            guard let base = storage.baseAddress else { return body(nil, 0) }
            var nva: [nghttp2_nv] = []
            nva.reserveCapacity(ranges.count)
            for range in ranges {
                nva.append(
                    nghttp2_nv(
                        name: base + range.name.lowerBound, value: base + range.value.lowerBound,
                        namelen: range.name.count, valuelen: range.value.count,
                        flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
            }
            return nva.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
        }
    }
}
