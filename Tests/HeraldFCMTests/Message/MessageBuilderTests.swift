import HeraldAPNs
import HeraldCore
import HeraldFCM
import Testing

@Suite struct MessageBuilderTests {
    let now = Timestamp(seconds: 1_796_032_800)
    let builder = FCMMessageBuilder()

    static let fullNotification = Event.Notification(
        title: "New message", subtitle: "in #general", body: "Alice: hi", badge: 3, sound: Event.Sound(name: "default"),
        image: "https://cdn.example.com/a.jpg", category: "MESSAGE", threadID: "t-42", locKey: "MSG_BODY",
        locArgs: ["Alice"])

    @Test func prioritiesMapToFCMsScale() {
        #expect(Priority.allCases.map(\.fcmAndroidValue) == ["HIGH", "NORMAL", "NORMAL"])
    }

    @Test func fullEventMapsEveryFieldInFCMOrder() throws {
        let event = fcmEvent(
            .token("tok-1"), notification: Self.fullNotification, data: ["screen": "chat", "thread_id": 42]
        ) {
            $0.expiry = .ttl(seconds: 3600)
            $0.collapseID = "thread-42"
            $0.fcm = ["android": ["notification": ["channel_id": "messages"]]]
        }
        let message = builder.message(for: event, to: .token("tok-1"), now: now)
        #expect(
            JSONValue.object(message.object).jsonString == """
                {"token":"tok-1",\
                "notification":{"title":"New message","body":"Alice: hi","image":"https://cdn.example.com/a.jpg"},\
                "data":{"screen":"chat","thread_id":"42"},\
                "android":{"priority":"HIGH","ttl":"3600s","collapse_key":"thread-42","notification":{"sound":"default",\
                "tag":"t-42","click_action":"MESSAGE","body_loc_key":"MSG_BODY","body_loc_args":["Alice"],\
                "notification_count":3,"channel_id":"messages"}},\
                "apns":{"headers":{"apns-push-type":"alert","apns-priority":"10","apns-expiration":"1796036400",\
                "apns-collapse-id":"thread-42"},"payload":{"aps":{"alert":{"title":"New message","subtitle":"in #general",\
                "body":"Alice: hi","loc-key":"MSG_BODY","loc-args":["Alice"]},"badge":3,"sound":"default","thread-id":"t-42",\
                "category":"MESSAGE","mutable-content":1}},"fcm_options":{"image":"https://cdn.example.com/a.jpg"}},\
                "webpush":{"headers":{"TTL":"3600","Urgency":"high"}}}
                """)
        #expect(message.requestBody == JSONValue.object(["message": .object(message.object)]).serialized)
    }

    @Test func dataOnlyMessageIsABackgroundPushToIOS() {
        let event = fcmEvent(data: ["sync": true])
        let object = builder.message(for: event, to: .token("t"), now: now).object
        #expect(
            object["apns"] == [
                "headers": ["apns-push-type": "background", "apns-priority": "5"],
                "payload": ["aps": ["content-available": 1]],
            ])
        #expect(object["notification"] == nil)
        #expect(
            object["android"] == ["priority": "HIGH"], "no android.notification: it would make a data message visible")
        #expect(object["data"] == ["sync": "true"])
    }

    @Test func soundAloneDoesNotMakeAnAndroidNotification() {
        let event = fcmEvent(notification: Event.Notification(sound: Event.Sound(name: "ping.caf"))) {
            $0.priority = .normal
        }
        let object = builder.message(for: event, to: .token("t"), now: now).object
        #expect(object["android"] == ["priority": "NORMAL"])
        #expect(object["apns"]?["payload"] == ["aps": ["sound": "ping.caf"]])
        #expect(object["apns"]?["headers"]?["apns-push-type"] == "alert")
    }

    @Test func topicAndConditionAreTheTarget() {
        let topic = builder.message(for: fcmEvent(.topic("news")), to: .topic("news"), now: now).object
        #expect(topic.keys.first == "topic")
        #expect(topic["topic"] == "news")
        #expect(topic["token"] == nil)
        let condition = "'news' in topics && 'fr' in topics"
        let conditional = builder.message(for: fcmEvent(.condition(condition)), to: .condition(condition), now: now)
            .object
        #expect(conditional["condition"] == .string(condition))
    }

    /// A FID target is sent as `message.fid`, first like every target, with
    /// the rest of the message what a token target gets.
    @Test func aFIDIsTheTargetAsMessageFID() {
        let fid = "cR1Zm2QmSSmvP3bqAbcDef"
        let event = fcmEvent(.fid(fid), notification: Event.Notification(title: "Hi"))
        let object = builder.message(for: event, to: .fid(fid), now: now).object
        #expect(object.keys.first == "fid")
        #expect(object["fid"] == .string(fid))
        #expect(object["token"] == nil)
        var asToken = builder.message(for: event, to: .token(fid), now: now).object
        asToken["token"] = nil
        var asFID = object
        asFID["fid"] = nil
        #expect(asFID == asToken)
    }

    @Test func expiresAtBecomesRemainingTTLAndAbsoluteAPNsExpiration() {
        let event = fcmEvent(notification: .init(title: "t")) {
            $0.expiry = .at(Timestamp(seconds: 1_796_032_890, nanoseconds: 500_000_000))
        }
        let object = builder.message(for: event, to: .token("t"), now: now).object
        #expect(object["android"]?["ttl"] == "90s")
        #expect(object["apns"]?["headers"]?["apns-expiration"] == "1796032890")
        #expect(object["webpush"]?["headers"]?["TTL"] == "90")
    }

    @Test func ttlZeroMeansNowOrNever() {
        let event = fcmEvent(notification: .init(title: "t")) { $0.expiry = .ttl(seconds: 0) }
        let object = builder.message(for: event, to: .token("t"), now: now).object
        #expect(object["android"]?["ttl"] == "0s")
        #expect(object["apns"]?["headers"]?["apns-expiration"] == "0")
    }

    @Test func lowPriorityIsNormalOnAndroidAndOneOnAPNs() {
        let event = fcmEvent(notification: .init(body: "b")) { $0.priority = .low }
        let object = builder.message(for: event, to: .token("t"), now: now).object
        #expect(object["android"]?["priority"] == "NORMAL")
        #expect(object["apns"]?["headers"]?["apns-priority"] == "1")
        #expect(object["webpush"]?["headers"]?["Urgency"] == "low")
    }

    @Test func rawFCMObjectIsMergedLastWithNullDeleting() {
        let event = fcmEvent(notification: .init(title: "t")) {
            $0.expiry = .ttl(seconds: 60)
            $0.fcm = [
                "android": ["priority": "NORMAL", "ttl": nil, "restricted_package_name": "com.example"],
                "apns": ["headers": ["apns-priority": "5"]], "fcm_options": ["analytics_label": "campaign-7"],
            ]
        }
        let object = builder.message(for: event, to: .token("t"), now: now).object
        #expect(object["android"] == ["priority": "NORMAL", "restricted_package_name": "com.example"])
        #expect(object["apns"]?["headers"]?["apns-priority"] == "5")
        #expect(object["apns"]?["headers"]?["apns-expiration"] == "1796032860")
        #expect(object["fcm_options"] == ["analytics_label": "campaign-7"])
    }

    @Test func eventAPNsOverridesApplyInsideTheAPNsBlock() {
        let event = fcmEvent(
            notification: .init(title: "t", sound: Event.Sound(name: "alarm.caf", critical: true, volume: 0.8))
        ) {
            $0.apns = APNsOverrides(
                headers: ["apns-topic": "com.example.chat"],
                payload: ["aps": ["interruption-level": "critical"], "k": 1])
        }
        let apns = builder.message(for: event, to: .token("t"), now: now).object["apns"]
        #expect(apns?["headers"]?["apns-topic"] == "com.example.chat")
        #expect(
            apns?["payload"] == [
                "aps": [
                    "alert": ["title": "t"], "sound": ["name": "alarm.caf", "critical": 1, "volume": 0.8],
                    "interruption-level": "critical",
                ],
                "k": 1,
            ])
    }

    @Test func collapseIDOverSixtyFourBytesStaysOffAPNs() {
        let long = String(repeating: "c", count: 65)
        let event = fcmEvent(notification: .init(title: "t")) { $0.collapseID = long }
        let object = builder.message(for: event, to: .token("t"), now: now).object
        #expect(object["android"]?["collapse_key"] == .string(long))
        #expect(object["apns"]?["headers"]?["apns-collapse-id"] == nil)
    }

    @Test func contentAvailableAndMutableContentReachAPS() {
        let event = fcmEvent(notification: .init(title: "t")) {
            $0.contentAvailable = true
            $0.mutableContent = true
        }
        let aps = builder.message(for: event, to: .token("t"), now: now).object["apns"]?["payload"]?["aps"]
        #expect(aps == ["alert": ["title": "t"], "content-available": 1, "mutable-content": 1])
    }
}
