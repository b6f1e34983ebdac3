import HeraldCore
import HeraldWebPush

/// An error answer of the simulated push service: the status, a short
/// `reason` the record and the admin API show, and a `description` saying
/// what was wrong, as `{"reason":"…","description":"…"}`.
///
/// RFC 8030 fixes the statuses but no error body (each push service words
/// its own), so the simulator uses the shape its other answers already have:
/// a client under test reads the status, a person reads the description.
public struct WebPushSimulatorRejection: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var description: String
    /// Headers the answer carries besides `content-type` (`retry-after`,
    /// `accept-encoding`, `www-authenticate`, `allow`).
    public var headers: [WebPushSimulatorHeader]

    public init(_ status: Int, _ reason: String, _ description: String, headers: [WebPushSimulatorHeader] = []) {
        self.status = status
        self.reason = reason
        self.description = description
        self.headers = headers
    }

    /// `{"reason":"…","description":"…"}`.
    public var body: [UInt8] {
        JSONValue.object(JSONObject([("reason", .string(reason)), ("description", .string(description))])).serialized
    }

    func answer(delay: Duration?) -> SimulatedAnswer {
        var all: [(name: String, value: String)] = [("content-type", "application/json")]
        for header in headers { all.append((header.name, header.value)) }
        return .respond(status: status, headers: all, body: body, delay: delay)
    }

    /// The `reason` of an error body in this shape, if it has one.
    static func reason(in body: [UInt8]) -> String? {
        (try? JSONValue.parse(body))?["reason"]?.stringValue
    }

    /// 403 for a VAPID header that does not verify, its reason naming the
    /// check that failed and its description the verifier's own words.
    static func forbidden(_ error: VAPIDError) -> Self {
        let reason =
            switch error {
            case .malformedHeader: "MalformedAuthorization"
            case .invalidKey: "InvalidVAPIDKey"
            case .invalidToken: "InvalidVAPIDToken"
            case .badSignature: "BadVAPIDSignature"
            case .unexpectedKey: "VAPIDKeyMismatch"
            case .wrongAudience: "WrongAudience"
            case .badExpiry: "BadExpiry"
            case .invalidSubject, .invalidLifetime, .signingFailed: "InvalidVAPID"
            }
        return Self(403, reason, error.description)
    }
}

/// One header of a simulated push service answer, lower-case name first.
public struct WebPushSimulatorHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
