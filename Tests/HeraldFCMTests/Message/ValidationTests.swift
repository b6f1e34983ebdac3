import HeraldAPNs
import HeraldCore
import HeraldFCM
import Testing

/// `FCMProvider.validate`: what is refused before any request. The provider
/// is built without ever sending, so no HTTP is involved.
@Suite struct ValidationTests {
    /// A data-only event whose counted payload is `{"data":{"k":"x…"},"android":{"priority":"HIGH"}}`:
    /// 47 bytes plus the value.
    func event(_ address: Target.Address, valueBytes: Int) -> Event {
        fcmEvent(address, data: ["k": .string(String(repeating: "x", count: valueBytes))])
    }

    @Test func tokenMessagesMayUseExactly4096Bytes() throws {
        try OfflineProvider.with { provider in
            try provider.validate(
                event(.token("t"), valueBytes: 4049), for: Target(provider: .fcm, address: .token("t")))
            #expect(
                throws: DeliveryRejection(
                    reason: "MessageTooBig", message: "message payload is 4097 bytes, over FCM's 4096-byte limit")
            ) {
                try provider.validate(
                    event(.token("t"), valueBytes: 4050), for: Target(provider: .fcm, address: .token("t")))
            }
        }
    }

    /// A FID names one device: FCM's 4096 bytes, not the topic limit.
    @Test func fidMessagesMayUseExactly4096Bytes() throws {
        try OfflineProvider.with { provider in
            let fid = Target(provider: .fcm, address: .fid("cR1Zm2QmSSmvP3bqAbcDef"))
            try provider.validate(event(fid.address, valueBytes: 4049), for: fid)
            #expect(
                throws: DeliveryRejection(
                    reason: "MessageTooBig", message: "message payload is 4097 bytes, over FCM's 4096-byte limit")
            ) {
                try provider.validate(event(fid.address, valueBytes: 4050), for: fid)
            }
        }
    }

    @Test func topicAndConditionMessagesAreLimitedTo2048Bytes() throws {
        try OfflineProvider.with { provider in
            try provider.validate(
                event(.topic("news"), valueBytes: 2001), for: Target(provider: .fcm, address: .topic("news")))
            let rejection = DeliveryRejection(
                reason: "MessageTooBig",
                message: "message payload is 2049 bytes, over FCM's 2048-byte limit for topic messages")
            #expect(throws: rejection) {
                try provider.validate(
                    event(.topic("news"), valueBytes: 2002), for: Target(provider: .fcm, address: .topic("news")))
            }
            #expect(throws: rejection) {
                try provider.validate(
                    event(.condition("'a' in topics"), valueBytes: 2002),
                    for: Target(provider: .fcm, address: .condition("'a' in topics")))
            }
        }
    }

    @Test func oversizedAPNsPayloadIsRejected() throws {
        try OfflineProvider.with { provider in
            let event = fcmEvent(notification: .init(title: "t")) {
                $0.apns = APNsOverrides(payload: ["blob": .string(String(repeating: "y", count: 4100))])
            }
            #expect(
                throws: DeliveryRejection(
                    reason: "MessageTooBig", message: "apns payload is 4141 bytes, over APNs' 4096-byte limit")
            ) {
                try provider.validate(event, for: event.targets[0])
            }
        }
    }

    @Test func reservedDataKeysAreRejectedByName() throws {
        try OfflineProvider.with { provider in
            for key in ["from", "message_type", "google.c.a.e", "gcm.n.e"] {
                let event = fcmEvent(data: [key: "1"])
                #expect(
                    throws: DeliveryRejection(
                        reason: "InvalidDataKey",
                        message: "data key \"\(key)\" is reserved by FCM (from, message_type, google*, gcm*)")
                ) {
                    try provider.validate(event, for: event.targets[0])
                }
            }
            let allowed = fcmEvent(data: ["collapse_key": "1", "screen": "chat"])
            try provider.validate(allowed, for: allowed.targets[0])
        }
    }

    @Test func anAPNsTargetIsNotFCMs() throws {
        try OfflineProvider.with { provider in
            #expect(throws: DeliveryRejection(reason: "WrongProvider", message: "target is for apns, not fcm")) {
                try provider.validate(fcmEvent(), for: Target(provider: .apns, address: .token("ab")))
            }
        }
    }
}
