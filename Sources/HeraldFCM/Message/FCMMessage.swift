import HeraldCore

/// One FCM HTTP v1 `message`, built for one target: what `messages:send`
/// receives, and what size checks and tests look at.
public struct FCMMessage: Sendable, Equatable {
    public let target: Target.Address
    /// The `message` object, members in FCM's documented order.
    public let object: JSONObject

    public init(target: Target.Address, object: JSONObject) {
        self.target = target
        self.object = object
    }

    /// The request body: `{"message": {...}}`.
    public var requestBody: [UInt8] {
        JSONValue.object(["message": .object(object)]).serialized
    }
}
