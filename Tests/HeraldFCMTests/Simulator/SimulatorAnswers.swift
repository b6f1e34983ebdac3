import HeraldCore
import HeraldSimulator
import Testing

/// Reads a `SimulatedAnswer` back for assertions.
struct ReadAnswer {
    let status: Int
    let headers: [(name: String, value: String)]
    let json: JSONValue?

    init(_ answer: SimulatedAnswer) {
        switch answer {
        case .respond(let status, let headers, let body, _), .respondThenGoAway(let status, let headers, let body, _):
            self.status = status
            self.headers = headers
            json = try? JSONValue.parse(body)
        case .reset:
            status = 0
            headers = []
            json = nil
        }
    }

    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// `error.message` of a Google error body.
    var errorMessage: String? { json?["error"]?["message"]?.stringValue }
    /// The FcmError detail's `errorCode`.
    var fcmErrorCode: String? {
        json?["error"]?["details"]?.arrayValue?.first {
            $0["@type"] == "type.googleapis.com/google.firebase.fcm.v1.FcmError"
        }?["errorCode"]?
        .stringValue
    }
}
