import HeraldAPNs
import HeraldCore
import HeraldProviders
import Testing

@Suite struct RequestTests {
    let now = Timestamp(seconds: 1_800_000_000)
    let id = "00000000-0000-4000-8000-000000000000"

    func request(_ event: Event) throws(DeliveryRejection) -> APNsRequest {
        try APNsRequest(event: event, target: event.targets[0], bundleID: chatApp, now: now, apnsID: id)
    }

    /// A registered device's own topic replaces the app's bundle id, push-type suffix and all.
    @Test func aDevicesTopicReplacesTheBundleID() throws {
        var target = Target(provider: .apns, address: .token("ab"))
        target.apns.topic = "com.example.chat.beta"
        let event = try Event.decode(
            Array(#"{"id": "e", "push_type": "voip", "provider": "apns", "token": "ab", "data": {"k": 1}}"#.utf8),
            fallbackID: "m", providers: .registered)
        let request = try APNsRequest(event: event, target: target, bundleID: chatApp, now: now, apnsID: id)
        #expect(request.headers.topic == "com.example.chat.beta.voip")
    }

    func headers(_ event: Event) throws -> [String] {
        try request(event).headers.fields.map { "\($0.name): \($0.value)" }
    }

    @Test(arguments: [
        (PushType.alert, "com.example.chat", "10"), (.background, "com.example.chat", "5"),
        (.voip, "com.example.chat.voip", "10"), (.liveactivity, "com.example.chat.push-type.liveactivity", "10"),
        (.complication, "com.example.chat.complication", "10"),
        (.fileprovider, "com.example.chat.pushkit.fileprovider", "10"),
        (.mdm, "com.example.chat", "10"), (.location, "com.example.chat.location-query", "10"),
        (.pushtotalk, "com.example.chat.voip-ptt", "10"), (.widgets, "com.example.chat.push-type.widgets", "10"),
    ])
    func eachPushTypeSendsItsTypeTopicSuffixAndPriority(pushType: PushType, topic: String, priority: String) throws {
        let fields = try request(event(notification: .init(body: "b"), pushType: pushType)).headers
        #expect(fields.value("apns-push-type") == pushType.rawValue)
        #expect(fields.value("apns-topic") == topic)
        #expect(fields.value("apns-priority") == priority)
    }

    @Test func alertHeadersAreInStableOrderWithoutOptionalOnes() throws {
        #expect(
            try headers(event(notification: .init(body: "b"))) == [
                "apns-push-type: alert", "apns-topic: com.example.chat", "apns-priority: 10", "apns-id: \(id)",
            ])
    }

    @Test func backgroundPushAskedForHighPriorityIsSentWithFive() throws {
        let e = event(priority: .high, contentAvailable: true)
        #expect(try request(e).headers.value("apns-priority") == "5")
        #expect(try request(event(priority: .low, contentAvailable: true)).headers.value("apns-priority") == "1")
    }

    @Test func ttlBecomesAnAbsoluteExpirationInSeconds() throws {
        #expect(try request(event(expiry: .ttl(seconds: 3600))).headers.value("apns-expiration") == "1800003600")
        #expect(try request(event(expiry: .ttl(seconds: 0))).headers.value("apns-expiration") == "0")
        let at = Timestamp(seconds: 1_800_000_500, nanoseconds: 900_000_000)
        #expect(try request(event(expiry: .at(at))).headers.value("apns-expiration") == "1800000500")
    }

    @Test func pushToTalkWithoutExpiryGetsExpirationZeroAsAppleAsks() throws {
        #expect(try request(event(pushType: .pushtotalk)).headers.value("apns-expiration") == "0")
        #expect(try request(event(pushType: .alert)).headers.value("apns-expiration") == nil)
    }

    @Test func collapseIDOf64BytesIsSentAnd65IsRejectedBeforeSending() throws {
        let ok = String(repeating: "c", count: 64)
        #expect(try request(event(collapseID: ok)).headers.value("apns-collapse-id") == ok)
        let error = #expect(throws: DeliveryRejection.self) { try request(event(collapseID: ok + "é")) }
        #expect(error?.reason == "BadCollapseId")
        #expect(error?.message == "apns-collapse-id is 66 bytes, over APNs' 64-byte limit")
    }

    @Test func rawHeadersReplaceBuiltOnesAndAddNewOnes() throws {
        let e = event(apns: APNsOverrides(headers: ["apns-priority": "5", "apns-expiration": "0", "x-trace": "t1"]))
        #expect(
            try headers(e) == [
                "apns-push-type: alert", "apns-topic: com.example.chat", "apns-priority: 5", "apns-id: \(id)",
                "apns-expiration: 0", "x-trace: t1",
            ])
        let sent = try request(e).headers
        #expect(sent.value("apns-priority") == "5")
        #expect(sent.value("apns-expiration") == "0")
        #expect(sent.value("x-trace") == "t1")
        #expect(sent.value("apns-topic") == "com.example.chat")
        #expect(sent.value("apns-collapse-id") == nil)
    }

    @Test func payloadOverTheLimitIsRejectedWithItsSize() throws {
        let body = String(repeating: "x", count: 4070)
        let error = #expect(throws: DeliveryRejection.self) { try request(event(notification: .init(body: body))) }
        #expect(error?.reason == "PayloadTooLarge")
        #expect(error?.message == "payload is 4099 bytes, over APNs' 4096-byte limit for alert pushes")
        // The same payload fits VoIP's 5120 bytes.
        #expect(try request(event(notification: .init(body: body), pushType: .voip)).body.count == 4099)
    }

    @Test func topicTargetIsRejectedAsMissingDeviceToken() {
        var e = event()
        e.targets = [Target(provider: .apns, address: .topic("news"))]
        let error = #expect(throws: DeliveryRejection.self) {
            try APNsRequest(event: e, target: e.targets[0], bundleID: chatApp, now: now, apnsID: id)
        }
        #expect(error?.description == "MissingDeviceToken: an APNs target needs a device token, found a topic")
    }

    @Test func configuredTopicWithTheSuffixIsNotDoubled() {
        #expect(APNsTopic.topic(bundleID: "com.example.chat.voip", pushType: .voip) == "com.example.chat.voip")
    }

    @Test func generatedIDsAreLowercaseVersion4UUIDs() {
        var ids = Set<String>()
        for _ in 0..<100 {
            let id = APNsID.random()
            #expect(APNsID.isValid(id))
            #expect(id == id.lowercased())
            #expect(Array(id)[14] == "4")
            ids.insert(id)
        }
        #expect(ids.count == 100)
    }
}
