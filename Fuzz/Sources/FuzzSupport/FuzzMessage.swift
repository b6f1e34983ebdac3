/// A fuzz input read as a small text message, so seed files stay readable
/// and each part reaches the code under test on its own:
///
/// ```
/// <start line>
/// name: value
/// name: value
///
/// <body: every byte after the first empty line>
/// ```
///
/// Lines end with `\n` (a `\r` before it is dropped). A header line without
/// `": "` is a name with an empty value. Bytes that are not UTF-8 in the
/// start line or headers are repaired (U+FFFD); the body stays raw bytes.
public struct FuzzMessage {
    public var startLine: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(_ bytes: UnsafeRawBufferPointer) {
        let all = Array(bytes)
        var lines: [String] = []
        var index = 0
        var bodyStart = all.count
        while index < all.count {
            let end = all[index...].firstIndex(of: UInt8(ascii: "\n")) ?? all.count
            var line = all[index..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            index = end + 1
            if line.isEmpty, !lines.isEmpty {
                bodyStart = min(index, all.count)
                break
            }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        startLine = lines.first ?? ""
        headers = lines.dropFirst().map { line in
            guard let separator = line.firstRange(of: ": ") else { return (line, "") }
            return (String(line[..<separator.lowerBound]), String(line[separator.upperBound...]))
        }
        body = bodyStart < all.count ? Array(all[bodyStart...]) : []
    }

    /// The first value of header `name` (exact match).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
