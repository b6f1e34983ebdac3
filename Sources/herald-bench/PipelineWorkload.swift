import HeraldCore

/// The events `bench/loadgen` publishes, made in-process: mixed APNs/FCM, 1–3
/// targets, 300–800 byte bodies with a notification, data, push type,
/// priority, TTL, collapse id and a context. Deterministic for a seed, so two
/// builds measure the same bytes.
struct PipelineWorkload {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 2_654_435_761 &+ 88_172_645_463_325_252 }

    private mutating func next(_ bound: Int) -> Int {
        // xorshift64*: cheap and good enough to vary the shape of events.
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 2_685_821_657_736_338_717) >> 33) % bound
    }

    private mutating func text(_ length: Int) -> String {
        let words = [
            "hello", "meeting", "at", "noon", "see", "you", "there", "thanks", "ok", "the", "report", "is", "ready",
        ]
        var out = ""
        while out.utf8.count < length { out += (out.isEmpty ? "" : " ") + words[next(words.count)] }
        return String(out.prefix(length))
    }

    private mutating func token(apns: Bool) -> String {
        let hex = Array("0123456789abcdef")
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        if apns { return String((0..<64).map { _ in hex[next(16)] }) }
        return String((0..<22).map { _ in alphabet[next(64)] }) + ":APA9"
            + String((0..<125).map { _ in alphabet[next(64)] })
    }

    /// Event `sequence`'s body.
    mutating func event(_ sequence: Int) -> [UInt8] {
        let targets = (0..<(1 + next(3))).map { _ -> String in
            let apns = next(2) == 0
            return #"{"provider":"\#(apns ? "apns" : "fcm")","token":"\#(token(apns: apns))"}"#
        }
        let head =
            #"{"id":"bench-\#(sequence)","app":"bench","targets":[\#(targets.joined(separator: ","))],"#
            + #""notification":{"title":"\#(text(8 + next(24)))","body":""#
        let tail =
            #"","badge":\#(next(20)),"sound":"default","thread_id":"t-\#(next(1000))"},"#
            + #""data":{"screen":"chat","thread_id":"\#(next(1000))"},"push_type":"alert","priority":"high","#
            + #""ttl":3600,"collapse_id":"thread-\#(next(1000))","context":{"bench_seq":\#(sequence),"bench_t":"0000000000000000"}}"#
        let wanted = 300 + next(501)
        let body = text(max(8, wanted - head.utf8.count - tail.utf8.count))
        return Array((head + body + tail).utf8)
    }
}
