// Fuzzes the event decoder as `herald run` meets it: an events-queue message
// (body, headers, message-id, routing key) through `EventPlanner.plan`
// (decoding, validation, targets, expiry), then every outcome it builds is
// encoded and every send is turned into the APNs payload, the FCM message, or
// the Web Push plaintext and subscription.
//
// Input (see FuzzMessage): the start line is the routing key; headers are the
// AMQP headers, except `:message-id` and `:redelivered`, which set those
// properties; the body is the event body.
import FuzzSupport
import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldPipeline
import HeraldProviders
import HeraldWebPush
@testable import HeraldWebPush

let planner = EventPlanner(
    router: Router(rules: []), apps: ["chat": [.apns, .fcm, .webpush], "news": [.fcm]], providers: .registered)
let now = Timestamp(seconds: 1_796_000_000, nanoseconds: 123_000_000)

FuzzDriver.run { input in
    let message = FuzzMessage(input)
    var headers: [String: String] = [:]
    for (name, value) in message.headers where !name.hasPrefix(":") { headers[name] = value }
    let incoming = IncomingEvent(
        body: message.body, routingKey: message.startLine, headers: headers, messageID: message.header(":message-id"),
        redelivered: message.header(":redelivered") != nil)
    let plan = planner.plan(incoming, now: now, newID: { "fuzz-generated-id" })
    for outcome in plan.outcomes {
        let encoded = outcome.encoded
        precondition(
            encoded == outcome.jsonValue.serialized, "the two outcome encoders differ: \(outcome.jsonValue.jsonString)")
        do {
            _ = try Outcome.decode(encoded, providers: .registered)
        } catch {
            preconditionFailure("an encoded outcome does not decode: \(error): \(outcome.jsonValue.jsonString)")
        }
    }
    for send in plan.sends {
        switch send.target.provider {
        case .apns: _ = APNsPayloadBuilder.payload(for: send.event).encoded
        case .fcm: _ = FCMMessageBuilder().message(for: send.event, to: send.target.address, now: now).requestBody
        case .webpush:
            _ = WebPushPayload.plaintext(of: send.event)
            if let keys = send.target.webPushKeys {
                _ = try? WebPushSubscription(endpoint: send.target.address.value, p256dh: keys.p256dh, auth: keys.auth)
            }
        default:
            break
        }
    }
}
