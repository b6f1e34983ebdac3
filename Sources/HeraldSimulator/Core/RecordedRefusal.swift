import HeraldCore

/// One request the simulator did not accept: every answer other than a 2xx, an
/// injected reset, a stream left hanging. It exists so a test can assert on
/// what its client was refused ("Herald sent BadTopic", "the probe was
/// answered BadDeviceToken") as easily as on what was delivered.
public struct RecordedRefusal: Sendable, Equatable {
    /// `apns`, `fcm`, `oauth` or `webpush`; nil when no simulated service serves the path (404 BadPath).
    public var provider: String?
    public var method: String
    /// The request's `:path`.
    public var path: String
    /// Whom the request was addressed to, when it names an addressee the service could read.
    public var addressee: SimulatedAddressee?
    /// The request headers its service records (`SimulatorService.recordedHeaders`:
    /// APNs's `apns-*`; Web Push's `ttl`, `urgency`, `topic`, `content-encoding`), authorization left out.
    public var headers: [String: String]
    /// The request body when it is JSON (the APNs payload, FCM's `{"message":...}`); form bodies
    /// (OAuth's, which carry a signed assertion) are left out.
    public var requestBody: JSONValue?
    /// The status answered; nil when the stream was reset or never answered.
    public var status: Int?
    /// The provider's reason: Apple's `reason`, FCM's `errorCode` (else Google's `status`), OAuth's `error`.
    public var reason: String?
    /// The body the client received, when it is JSON.
    public var answer: JSONValue?
    /// The injected fault that made this answer, if one did.
    public var fault: InjectedFaultKind?
    public var receivedAt: Timestamp

    public init(
        provider: String?, method: String, path: String, addressee: SimulatedAddressee?,
        headers: [String: String] = [:],
        requestBody: JSONValue? = nil, status: Int?, reason: String?, answer: JSONValue? = nil,
        fault: InjectedFaultKind? = nil,
        receivedAt: Timestamp
    ) {
        self.provider = provider
        self.method = method
        self.path = path
        self.addressee = addressee
        self.headers = headers
        self.requestBody = requestBody
        self.status = status
        self.reason = reason
        self.answer = answer
        self.fault = fault
        self.receivedAt = receivedAt
    }

    /// A probe refused (the APNs all-zero token's BadDeviceToken), not a notification.
    public var probe: Bool { addressee?.probe ?? false }

    /// `{"provider","method","path","target","status","reason","fault","received_at","headers","request_body","answer"}`,
    /// each left out when it has no value, and `"probe":true` for a probe.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if let provider { object["provider"] = .string(provider) }
        object["method"] = .string(method)
        object["path"] = .string(path)
        if let target = addressee?.target { object["target"] = .string(target) }
        if let status { object["status"] = .number(JSONNumber(status)) }
        if let reason { object["reason"] = .string(reason) }
        if let fault { object["fault"] = .string(fault.rawValue) }
        object["received_at"] = .string(receivedAt.rfc3339(fractionDigits: 3))
        var headerObject = JSONObject()
        for key in headers.keys.sorted() { headerObject[key] = .string(headers[key] ?? "") }
        object["headers"] = .object(headerObject)
        if let requestBody { object["request_body"] = requestBody }
        if let answer { object["answer"] = answer }
        if probe { object["probe"] = true }
        return .object(object)
    }
}
