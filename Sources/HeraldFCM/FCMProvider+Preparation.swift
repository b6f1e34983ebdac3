import HeraldCore

extension FCMProvider {
    /// Refuses before sending what FCM would refuse for good (reserved data
    /// keys, payloads over FCM's size limits) and builds the request body.
    public func prepare(_ event: Event, for target: Target) throws(DeliveryRejection) -> PreparedNotification<[UInt8]> {
        guard target.provider == .fcm else {
            throw DeliveryRejection(reason: "WrongProvider", message: "target is for \(target.provider), not fcm")
        }
        if let key = event.data?.keys.first(where: FCMData.isReserved) {
            throw DeliveryRejection(
                reason: "InvalidDataKey",
                message: "data key \"\(key)\" is reserved by FCM (from, message_type, google*, gcm*)")
        }
        let built = message(for: event, to: target)
        let message = built.object
        let limit = FCMPayloadLimit.limit(for: target.address)
        let size = FCMPayloadLimit.countedSize(of: message)
        if size > limit {
            let kind =
                target.address.isDevice ? "FCM's \(limit)-byte limit" : "FCM's \(limit)-byte limit for topic messages"
            throw DeliveryRejection(reason: "MessageTooBig", message: "message payload is \(size) bytes, over \(kind)")
        }
        if let apnsSize = FCMPayloadLimit.apnsPayloadSize(of: message), apnsSize > FCMPayloadLimit.apnsPayload {
            throw DeliveryRejection(
                reason: "MessageTooBig",
                message: "apns payload is \(apnsSize) bytes, over APNs' \(FCMPayloadLimit.apnsPayload)-byte limit")
        }
        return PreparedNotification(event: event, target: target, request: built.requestBody)
    }
}
