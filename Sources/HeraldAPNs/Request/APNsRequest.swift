import HeraldCore

/// One notification ready to send: device token, headers and body, already
/// checked against everything APNs would refuse before reading it.
public struct APNsRequest: Sendable {
    public var deviceToken: String
    public var headers: APNsRequestHeaders
    public var body: [UInt8]

    /// `/3/device/<token>`.
    public var path: String { "/3/device/" + deviceToken }

    /// Builds and checks the request for `event` to `target`.
    ///
    /// - Throws: `DeliveryRejection` with Apple's reason name when APNs would
    ///   refuse the request as written: `PayloadTooLarge` (over 4096 bytes,
    ///   5120 for VoIP), `BadCollapseId` (over 64 bytes), `MissingDeviceToken`
    ///   (the target is not a device token), `InvalidHeader` (an event field
    ///   that would make a header no HTTP client may send, e.g. CR/LF in
    ///   `collapse_id`; see `APNsRequestHeaders.checkFields`),
    ///   `TopicNotAllowed` (Herald's own: the `apns-topic` sent — the
    ///   app's, the device's `apns_topic` or registration `topic`, or an
    ///   `apns.headers.apns-topic` — is not one of `allowedTopics`).
    /// - Parameter allowedTopics: the topics this app may send with
    ///   (`APNsTopic.allowed`); nil sends any (benchmarks, tests of other parts).
    public init(
        event: Event, target: Target, bundleID: String, now: Timestamp, apnsID: String,
        allowedTopics: Set<String>? = nil
    ) throws(DeliveryRejection) {
        guard let token = target.token, !token.isEmpty else {
            throw DeliveryRejection(
                reason: APNsReason.missingDeviceToken.rawValue,
                message: "an APNs target needs a device token, found a \(target.address.field)")
        }
        // A device registered with a topic of its own is sent with it in place of the app's bundle id.
        let headers = APNsRequestHeaders(
            event: event, bundleID: target.apns.topic ?? bundleID, now: now, apnsID: apnsID)
        try headers.checkFields()
        if let allowedTopics, let topic = headers.value(APNsHeaderName.topic), !allowedTopics.contains(topic) {
            let source =
                headers.overrides[APNsHeaderName.topic] != nil
                ? "event field apns.headers.\(APNsHeaderName.topic)"
                : target.apns.topic != nil
                    ? "the device's topic (\(APNsDeviceOverrides.topicField) or its registration's topic)"
                    : "the app's topic"
            throw DeliveryRejection(
                reason: "TopicNotAllowed",
                message:
                    "apns-topic \"\(topic.truncatedForMessage)\" from \(source) is not one of the app's allowed topics "
                    + "(apns.topic and apns.allowed_topics, each with its push-type suffixes)")
        }
        if let collapseID = headers.value(APNsHeaderName.collapseID), collapseID.utf8.count > APNsLimits.collapseIDBytes
        {
            throw DeliveryRejection(
                reason: APNsReason.badCollapseId.rawValue,
                message:
                    "apns-collapse-id is \(collapseID.utf8.count) bytes, over APNs' \(APNsLimits.collapseIDBytes)-byte limit"
            )
        }
        let body = APNsPayloadBuilder.payload(for: event).encoded
        let limit = APNsPayloadLimit.maxBytes(for: headers.pushType)
        if body.count > limit {
            throw DeliveryRejection(
                reason: APNsReason.payloadTooLarge.rawValue,
                message: "payload is \(body.count) bytes, over APNs' \(limit)-byte limit for \(headers.pushType) pushes"
            )
        }
        deviceToken = token
        self.headers = headers
        self.body = body
    }
}

/// APNs' maximum request body sizes.
///
/// - Important: 4096 bytes for every push type except VoIP (5120). A larger
///   body is answered 413 PayloadTooLarge; Herald checks before sending.
public enum APNsPayloadLimit {
    public static let standardBytes = 4096
    public static let voipBytes = 5120

    /// The limit for `pushType`.
    public static func maxBytes(for pushType: PushType) -> Int {
        pushType == .voip ? voipBytes : standardBytes
    }
}
