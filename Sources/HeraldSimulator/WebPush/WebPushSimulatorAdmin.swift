import HeraldCore
import HeraldCrypto

/// The simulated push service in the admin API:
/// `POST /_herald/webpush/subscriptions` and `DELETE /_herald/webpush/subscriptions/<id>`.
enum WebPushSimulatorAdmin {
    static let subscriptionsPath = SimulatorAdminService.prefix + "/webpush/subscriptions"

    /// POST `{}` or `{"application_server_key":"<base64url 65-byte point>"}`
    /// issues a subscription (restricted to that key when given) and answers
    /// 201 with `SimulatedWebPushSubscription.jsonValue()`: the browser's
    /// `{"endpoint","keys":{"p256dh","auth"}}` plus `id` and `private_key`;
    /// 429 once the service issued its `maxSubscriptions`.
    static func issueSubscription(_ admin: SimulatorAdminService, body: [UInt8]) throws(AdminError) -> SimulatedAnswer {
        let webpush = try service(admin)
        let object = try SimulatorAdminService.bodyObject(body, keys: ["application_server_key"], required: nil)
        var applicationServerKey: [UInt8]?
        if let value = object["application_server_key"] {
            guard let text = value.stringValue, let bytes = Base64URL.decode(text) else {
                throw .badRequest(
                    "application_server_key: expected base64url of a 65-byte P-256 point, found \(value.jsonString.prefix(100))"
                )
            }
            applicationServerKey = bytes
        }
        let issued: SimulatedWebPushSubscription
        do {
            issued = try webpush.issueSubscription(applicationServerKey: applicationServerKey)
        } catch {
            switch error {
            case .invalidApplicationServerKey: throw .badRequest(error.description)
            case .originUnknown: throw AdminError(503, error.description)
            case .tooManySubscriptions: throw AdminError(429, error.description)
            case .invalidOrigin, .keyGeneration: throw AdminError(500, error.description)
            }
        }
        do {
            return SimulatorAdminService.json(try issued.jsonValue(), status: 201)
        } catch {
            throw AdminError(500, "the subscription's private key cannot be written: \(error)")
        }
    }

    /// DELETE: the subscription is gone (messages to it are answered 410);
    /// answers `{"deleted":"<id>"}`, 404 for an id never issued.
    static func deleteSubscription(_ admin: SimulatorAdminService, id: String) throws(AdminError) -> SimulatedAnswer {
        let webpush = try service(admin)
        guard webpush.deleteSubscription(id) else {
            throw AdminError(404, "no Web Push subscription \(id) was ever issued")
        }
        return SimulatorAdminService.json(["deleted": .string(id)])
    }

    private static func service(_ admin: SimulatorAdminService) throws(AdminError) -> WebPushSimulatorService {
        guard let webpush = admin.service(WebPushSimulatorService.self) else {
            throw AdminError(404, "Web Push is not simulated here")
        }
        return webpush
    }
}
