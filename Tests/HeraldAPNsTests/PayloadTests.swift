import HeraldAPNs
import HeraldCore
import Testing

@Suite struct PayloadTests {
    func payloadText(_ event: Event) -> String { APNsPayloadBuilder.payload(for: event).encoded.string }

    @Test func notificationTextMapsToApsAlertWithLocalizationKeys() {
        let notification = Event.Notification(
            title: "New message", subtitle: "in #general", body: "Alice: hi", titleLocKey: "T_KEY", titleLocArgs: ["a"],
            locKey: "B_KEY", locArgs: ["b", "c"])
        #expect(
            payloadText(event(notification: notification)) == """
                {"aps":{"alert":{"title":"New message","subtitle":"in #general","body":"Alice: hi","title-loc-key":"T_KEY",\
                "title-loc-args":["a"],"loc-key":"B_KEY","loc-args":["b","c"]}}}
                """)
    }

    @Test func badgeZeroIsSentSoTheBadgeIsCleared() {
        #expect(payloadText(event(notification: .init(badge: 0))) == #"{"aps":{"badge":0}}"#)
    }

    @Test func namedSoundIsAStringAndCriticalSoundIsTheDictionary() {
        #expect(
            payloadText(event(notification: .init(sound: .init(name: "default")))) == #"{"aps":{"sound":"default"}}"#)
        let critical = event(notification: .init(sound: .init(name: "alarm.caf", critical: true, volume: 0.8)))
        #expect(payloadText(critical) == #"{"aps":{"sound":{"critical":1,"name":"alarm.caf","volume":0.8}}}"#)
    }

    @Test func categoryThreadAndFlagsAreApsKeys() {
        let e = event(notification: .init(body: "b", category: "MESSAGE", threadID: "t-42"), mutableContent: true)
        #expect(
            payloadText(e)
                == #"{"aps":{"alert":{"body":"b"},"thread-id":"t-42","category":"MESSAGE","mutable-content":1}}"#)
    }

    @Test func contentAvailableAloneIsASilentBackgroundPayload() {
        let e = event(contentAvailable: true)
        #expect(e.resolvedPushType == .background)
        #expect(payloadText(e) == #"{"aps":{"content-available":1}}"#)
    }

    @Test func dataAndImageGoBesideApsAndDataCannotReplaceAps() {
        let e = event(
            notification: .init(body: "b", image: "https://cdn.example.com/a.jpg"),
            data: json(#"{"screen":"chat","thread_id":42,"aps":{"badge":9}}"#))
        #expect(
            payloadText(e)
                == #"{"aps":{"alert":{"body":"b"},"mutable-content":1},"image":"https://cdn.example.com/a.jpg","screen":"chat","thread_id":42}"#
        )
    }

    /// Only a notification service extension can fetch and attach the image,
    /// and it runs only with `mutable-content`, unless the event says otherwise.
    @Test func anImageSetsMutableContentUnlessTheEventSaysNo() {
        let image = Event.Notification(body: "b", image: "https://cdn.example.com/a.jpg")
        #expect(payloadText(event(notification: image)).contains(#""mutable-content":1"#))
        #expect(!payloadText(event(notification: image, mutableContent: false)).contains("mutable-content"))
        #expect(!payloadText(event(notification: .init(body: "b"))).contains("mutable-content"))
    }

    @Test func rawApnsPayloadIsMergedLastAndNullDeletes() {
        let e = event(
            notification: .init(body: "b", badge: 3), data: json(#"{"screen":"chat"}"#),
            apns: APNsOverrides(
                payload: json(#"{"aps":{"interruption-level":"time-sensitive","badge":null},"screen":"inbox"}"#)))
        #expect(
            payloadText(e) == #"{"aps":{"alert":{"body":"b"},"interruption-level":"time-sensitive"},"screen":"inbox"}"#)
    }

    @Test func walletPassPayloadIsAnEmptyAps() {
        #expect(payloadText(event(apns: APNsOverrides(payload: json(#"{"aps":{}}"#)))) == #"{"aps":{}}"#)
    }

    @Test func typedApsCarriesEveryAppleKey() {
        let aps = APNsAps(
            alert: APNsAlert(title: "t", launchImage: "l.png", subtitleLocKey: "S", subtitleLocArgs: ["x"]),
            targetContentID: "window-1", interruptionLevel: .timeSensitive, relevanceScore: 0.75,
            filterCriteria: "work",
            urlArgs: ["boarding", "A998"])
        #expect(
            APNsPayload(aps: aps).encoded.string == """
                {"aps":{"alert":{"title":"t","launch-image":"l.png","subtitle-loc-key":"S","subtitle-loc-args":["x"]},\
                "target-content-id":"window-1","interruption-level":"time-sensitive","relevance-score":0.75,\
                "filter-criteria":"work","url-args":["boarding","A998"]}}
                """)
    }

    @Test func liveActivityFieldsAreWrittenWithSecondsTimestamps() {
        let activity = APNsLiveActivity(
            event: .end, timestamp: 1_790_000_000, contentState: json(#"{"score":"2-1"}"#),
            dismissalDate: 1_790_003_600,
            staleDate: 1_790_001_800, attributesType: "MatchAttributes", attributes: json(#"{"team":"A"}"#))
        #expect(
            APNsPayload(aps: APNsAps(liveActivity: activity)).encoded.string == """
                {"aps":{"timestamp":1790000000,"event":"end","content-state":{"score":"2-1"},"dismissal-date":1790003600,\
                "stale-date":1790001800,"attributes-type":"MatchAttributes","attributes":{"team":"A"}}}
                """)
    }

    @Test func limitIs4096BytesAnd5120ForVoIP() {
        #expect(APNsPayloadLimit.maxBytes(for: .alert) == 4096)
        #expect(APNsPayloadLimit.maxBytes(for: .background) == 4096)
        #expect(APNsPayloadLimit.maxBytes(for: .voip) == 5120)
    }
}

extension [UInt8] {
    var string: String { String(decoding: self, as: UTF8.self) }
}
