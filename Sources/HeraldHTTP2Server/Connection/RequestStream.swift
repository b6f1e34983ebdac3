/// One request stream while it is being received and answered, owned by its
/// connection on the loop thread.
final class RequestStream {
    let id: Int32
    var method = ""
    var path = ""
    var authority = ""
    var scheme = ""
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    var bodyTooLarge = false
    /// The decoded header list so far: name + value + 32 per field (RFC 9113 §6.5.2).
    var headerListBytes = 0
    /// Over `maxHeaderListBytes`: the fields are counted, no longer kept, and the stream is answered 431.
    var headerListTooLarge = false
    /// A response or RST_STREAM has been submitted: a client's reset of it is
    /// not a rapid reset (`rapidResetLimit`).
    var answered = false
    /// The response body nghttp2 pulls through the data provider.
    var responseBody: [UInt8] = []
    var responseOffset = 0

    init(id: Int32) { self.id = id }
}
