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
    /// The response body nghttp2 pulls through the data provider.
    var responseBody: [UInt8] = []
    var responseOffset = 0

    init(id: Int32) { self.id = id }
}
