import HeraldCore

/// The header, path and payload checks, one function per APNs rule.
extension APNsSimulatorService {
    static func deviceToken(inPath path: String) throws(APNsSimulatorRejection) -> String {
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { throw APNsSimulatorRejection(404, "BadPath") }
        let token = String(path.dropFirst(prefix.count))
        guard !token.isEmpty else { throw APNsSimulatorRejection.badRequest("MissingDeviceToken") }
        guard !token.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
            throw APNsSimulatorRejection(404, "BadPath")
        }
        return token
    }

    /// Apple's device tokens are 32 bytes: 64 hexadecimal digits.
    static func checkTokenFormat(_ token: String) throws(APNsSimulatorRejection) {
        guard token.utf8.count == 64, token.utf8.allSatisfy(\.isHexDigit) else {
            throw APNsSimulatorRejection.badRequest("BadDeviceToken")
        }
    }

    static func checkDuplicateHeaders(_ request: SimulatedRequest) throws(APNsSimulatorRejection) {
        var seen = Set<String>()
        for (name, _) in request.headers where name.hasPrefix("apns-") || name == "authorization" {
            guard seen.insert(name).inserted else { throw APNsSimulatorRejection.badRequest("DuplicateHeaders") }
        }
    }

    /// The push type (`alert` when the header is absent, as Apple assumes for iOS).
    static func pushType(_ request: SimulatedRequest) throws(APNsSimulatorRejection) -> APNsSimulatorPushType {
        guard let value = request.header("apns-push-type") else { return .alert }
        guard let pushType = APNsSimulatorPushType(rawValue: value) else {
            throw APNsSimulatorRejection.badRequest("InvalidPushType")
        }
        return pushType
    }

    /// 10, 5 or 1; background pushes must use 5 (or 1).
    static func checkPriority(_ request: SimulatedRequest, pushType: APNsSimulatorPushType)
        throws(APNsSimulatorRejection)
    {
        guard let value = request.header("apns-priority") else { return }
        guard let priority = Int(value), [10, 5, 1].contains(priority) else {
            throw APNsSimulatorRejection.badRequest("BadPriority")
        }
        if pushType == .background, priority == 10 { throw APNsSimulatorRejection.badRequest("BadPriority") }
    }

    /// A non-negative integer of UNIX seconds; stricter than Apple, a non-zero
    /// time already past is refused too: it is almost always a relative TTL
    /// (`300`) sent where an absolute time belongs.
    static func checkExpiration(_ request: SimulatedRequest, now: Timestamp) throws(APNsSimulatorRejection) {
        guard let value = request.header("apns-expiration") else { return }
        guard let seconds = Int64(value), seconds >= 0 else {
            throw APNsSimulatorRejection.badRequest("BadExpirationDate")
        }
        if seconds != 0, seconds < now.seconds { throw APNsSimulatorRejection.badRequest("BadExpirationDate") }
    }

    static func checkCollapseID(_ request: SimulatedRequest) throws(APNsSimulatorRejection) {
        guard let value = request.header("apns-collapse-id") else { return }
        if value.utf8.count > 64 { throw APNsSimulatorRejection.badRequest("BadCollapseId") }
    }

    /// `apns-id`, when given, must be a UUID (8-4-4-4-12 hexadecimal digits, either case).
    static func checkMessageID(_ request: SimulatedRequest) throws(APNsSimulatorRejection) {
        guard let value = request.header("apns-id") else { return }
        if !APNsSimulatorID.isValid(value) { throw APNsSimulatorRejection.badRequest("BadMessageId") }
    }

    /// Non-empty, within the push type's size limit, a JSON object with an
    /// `aps` object; a Live Activity payload needs `aps.timestamp` and `aps.event`.
    static func checkPayload(_ body: [UInt8], pushType: APNsSimulatorPushType) throws(APNsSimulatorRejection)
        -> JSONValue
    {
        guard !body.isEmpty else { throw APNsSimulatorRejection.badRequest("PayloadEmpty") }
        guard body.count <= pushType.maxPayloadBytes else { throw APNsSimulatorRejection(413, "PayloadTooLarge") }
        guard let payload = try? JSONValue.parse(body), let object = payload.objectValue else {
            throw APNsSimulatorRejection.badRequest("BadPayload")
        }
        guard let aps = object["aps"]?.objectValue else { throw APNsSimulatorRejection.badRequest("BadPayload") }
        if pushType == .liveactivity {
            guard aps["timestamp"]?.intValue != nil, let event = aps["event"]?.stringValue,
                ["start", "update", "end"].contains(event)
            else { throw APNsSimulatorRejection.badRequest("BadPayload") }
        }
        return payload
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
