/// Reads what `nghttp -v` printed about the frames it exchanged, for tests
/// that check what a server advertised.
public enum NghttpOutput {
    /// The SETTINGS_MAX_CONCURRENT_STREAMS values of the SETTINGS frames
    /// nghttp received (not those it sent), in order.
    public static func receivedMaxConcurrentStreams(_ output: String) -> [Int] {
        var received = false
        var limits: [Int] = []
        for line in output.split(separator: "\n") {
            if line.contains(" SETTINGS frame ") { received = line.contains("recv SETTINGS frame") }
            guard received, let range = line.range(of: "SETTINGS_MAX_CONCURRENT_STREAMS(0x03):") else { continue }
            if let limit = Int(line[range.upperBound...].prefix { $0.isNumber }) { limits.append(limit) }
        }
        return limits
    }
}
