import HeraldCore
import HeraldCrypto
import HeraldWebPush

/// The checks of one push request, in the order `WebPushSimulatorService`
/// documents; the first that fails is the answer.
extension WebPushSimulatorService {
    /// An accepted message: the record, and what the 201 answer says.
    struct Accepted {
        let notification: RecordedNotification
        /// The origin of the subscription's endpoint, which the `Location` is on.
        let origin: String
        /// The TTL kept, in seconds (RFC 8030 §5.2).
        let ttl: Int
    }

    /// The values `Urgency` may have (RFC 8030 §5.3).
    static let urgencies: Set<String> = ["very-low", "low", "normal", "high"]
    /// The most characters a `Topic` may have (RFC 8030 §5.4).
    static let maximumTopicLength = 32
    /// The largest TTL kept; a larger one is lowered to it, as RFC 9111
    /// §1.2.2 reads a delta-seconds value too large to represent.
    static let maximumTTL = 2_147_483_648
    /// The content coding of RFC 8291 message bodies.
    static let contentCoding = "aes128gcm"

    func check(_ request: SimulatedRequest) throws(WebPushSimulatorRejection) -> Accepted {
        guard request.method == "POST" else {
            throw WebPushSimulatorRejection(
                405, "MethodNotAllowed", "a push resource takes POST (RFC 8030 §5), not \(request.method)",
                headers: [WebPushSimulatorHeader("allow", "POST")])
        }
        let subscription = try liveSubscription(inPath: request.path)
        try Self.authorize(request, for: subscription)
        let ttl = try Self.ttl(request)
        try Self.checkUrgency(request)
        try Self.checkTopic(request)
        let plaintext = try Self.decrypt(request, for: subscription)
        let notification = RecordedNotification(
            provider: name, target: subscription.id, headers: recordedHeaders(of: request),
            payload: plaintext.map(Self.recordedPayload) ?? .null, messageID: Self.messageID(),
            receivedAt: request.receivedAt,
            addressee: Self.addressee(subscriptionID: subscription.id, topic: request.header("topic")))
        return Accepted(notification: notification, origin: subscription.subscription.origin, ttl: ttl)
    }

    /// The live subscription the path names: 404 for an id never issued, 410 for a deleted one.
    private func liveSubscription(inPath path: String) throws(WebPushSimulatorRejection) -> SimulatedWebPushSubscription
    {
        guard let id = Self.subscriptionID(inPath: path), let issued = lookUp(id) else {
            throw WebPushSimulatorRejection(404, "NotFound", "no subscription was ever issued at this push resource")
        }
        switch issued {
        case .live(let subscription): return subscription
        case .deleted:
            throw WebPushSimulatorRejection(410, "Gone", "the subscription was deleted (the browser unsubscribed)")
        }
    }

    /// VAPID (RFC 8292 §4.2): absent is 401 with `WWW-Authenticate: vapid`;
    /// present but not verifying (for the subscription's origin, now, and
    /// its application server key when it has one) is 403.
    private static func authorize(
        _ request: SimulatedRequest, for subscription: SimulatedWebPushSubscription
    ) throws(WebPushSimulatorRejection) {
        guard let header = request.header("authorization") else {
            throw WebPushSimulatorRejection(
                401, "MissingAuthorization", "a push message needs Authorization: vapid t=<JWT>, k=<key> (RFC 8292)",
                headers: [WebPushSimulatorHeader("www-authenticate", "vapid")])
        }
        do {
            _ = try VAPIDAuthorization(parsing: header).verify(
                origin: subscription.subscription.origin, now: request.receivedAt,
                expectedPublicKey: subscription.applicationServerKey)
        } catch {
            throw .forbidden(error)
        }
    }

    /// The `TTL` header: required, whole seconds (RFC 8030 §5.2).
    private static func ttl(_ request: SimulatedRequest) throws(WebPushSimulatorRejection) -> Int {
        guard let text = request.header("ttl") else {
            throw WebPushSimulatorRejection(
                400, "MissingTTL", "a push message needs a TTL header, the seconds to keep it (RFC 8030 §5.2)")
        }
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw WebPushSimulatorRejection(
                400, "InvalidTTL", "TTL must be whole seconds (digits only), found \"\(text.prefix(40))\"")
        }
        let digits = text.drop { $0 == "0" }
        return digits.count > 10 ? maximumTTL : min(Int(digits) ?? 0, maximumTTL)
    }

    private static func checkUrgency(_ request: SimulatedRequest) throws(WebPushSimulatorRejection) {
        guard let urgency = request.header("urgency"), !urgencies.contains(urgency) else { return }
        throw WebPushSimulatorRejection(
            400, "InvalidUrgency",
            "Urgency must be very-low, low, normal or high (RFC 8030 §5.3), found \"\(urgency.prefix(40))\"")
    }

    private static func checkTopic(_ request: SimulatedRequest) throws(WebPushSimulatorRejection) {
        guard let topic = request.header("topic") else { return }
        guard topic.utf8.count <= maximumTopicLength, Base64URL.isUnpadded(topic) else {
            throw WebPushSimulatorRejection(
                400, "InvalidTopic",
                "Topic must be 1 to \(maximumTopicLength) characters of URL-safe base64 (RFC 8030 §5.4), "
                    + "found \(topic.utf8.count) characters")
        }
    }

    /// The plaintext of the body, nil for a message without one (RFC 8030
    /// §5 allows it, and it needs no content coding). A body over 4096 bytes
    /// is 413 (RFC 8030 §7.2), one not in `aes128gcm` 415 with
    /// `Accept-Encoding: aes128gcm` (RFC 9110 §15.5.16), one that does not
    /// decrypt 400.
    private static func decrypt(
        _ request: SimulatedRequest, for subscription: SimulatedWebPushSubscription
    ) throws(WebPushSimulatorRejection) -> [UInt8]? {
        let coding = request.header("content-encoding")
        if request.body.isEmpty, coding == nil { return nil }
        guard request.body.count <= WebPushEncryption.maximumBodySize else {
            throw WebPushSimulatorRejection(
                413, "PayloadTooLarge",
                "the body is \(request.body.count) bytes; push services need accept only \(WebPushEncryption.maximumBodySize) (RFC 8030 §7.2)"
            )
        }
        guard let coding, coding.lowercased() == contentCoding else {
            let found =
                coding.map { "Content-Encoding \"\($0.prefix(40))\" is not supported" }
                ?? "the body has no Content-Encoding"
            throw WebPushSimulatorRejection(
                415, "UnsupportedContentEncoding",
                "\(found); message bodies are encrypted as \(contentCoding) (RFC 8291 §4)",
                headers: [WebPushSimulatorHeader("accept-encoding", contentCoding)])
        }
        do {
            return try WebPushEncryption.decrypt(
                request.body, privateKey: subscription.privateKey, authSecret: subscription.subscription.authSecret)
        } catch {
            throw WebPushSimulatorRejection(400, "DecryptionFailed", error.description)
        }
    }

    /// The plaintext as the record keeps it: the JSON value when it is JSON
    /// (what Herald sends), else a JSON string of its text when it is UTF-8,
    /// else `{"base64url": "<the bytes>"}`.
    static func recordedPayload(_ plaintext: [UInt8]) -> JSONValue {
        if let json = try? JSONValue.parse(plaintext) { return json }
        if let text = String(validating: plaintext, as: UTF8.self) { return .string(text) }
        return .object(JSONObject([("base64url", .string(Base64URL.encode(plaintext)))]))
    }

    /// A new message id: 128 random bits in base64url.
    static func messageID() -> String {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: random.next() as UInt64) { Array($0) } }
        return Base64URL.encode(bytes)
    }
}
