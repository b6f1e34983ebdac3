import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldProviders
import Testing

/// Events using every provider's fields at once, decoded with the registered providers.
@Suite("Event decoding: accepted events, every provider")
struct RegisteredEventDecodingTests {
    /// An event using every field docs/event-model.md describes, with a real 64-hex APNs token.
    static let everyFieldExample = """
        {
          "id": "evt-7f3a",
          "app": "chat",
          "targets": [
            {"provider": "apns", "token": "\(apnsToken)"},
            {"provider": "fcm",  "token": "fcm-registration-token"},
            {"provider": "fcm",  "topic": "news"},
            {"provider": "fcm",  "condition": "'news' in topics && 'fr' in topics"}
          ],
          "notification": {
            "title": "New message", "subtitle": "in #general", "body": "Alice: hi",
            "badge": 3, "sound": "default", "image": "https://cdn.example.com/a.jpg",
            "category": "MESSAGE", "thread_id": "t-42",
            "title_loc_key": "...", "title_loc_args": [], "loc_key": "...", "loc_args": []
          },
          "data": {"screen": "chat", "thread_id": 42},
          "push_type": "alert",
          "priority": "high",
          "ttl": 3600,
          "collapse_id": "thread-42",
          "content_available": false,
          "mutable_content": false,
          "exclude_tokens": ["token-of-the-sender"],
          "apns": {"headers": {"apns-...": "..."}, "payload": {"aps": {"interruption-level": "time-sensitive"}}},
          "fcm":  {"android": {"notification": {"channel_id": "messages"}}, "apns": {}, "webpush": {}, "fcm_options": {}},
          "context": {"user_id": "u-1"}
        }
        """

    @Test func theEveryFieldExampleDecodesWithEveryField() throws {
        let event = try decodeEvent(Self.everyFieldExample)
        #expect(event.id == "evt-7f3a")
        #expect(event.app == "chat")
        #expect(
            event.targets == [
                Target(provider: .apns, address: .token(apnsToken)),
                Target(provider: .fcm, address: .token("fcm-registration-token")),
                Target(provider: .fcm, address: .topic("news")),
                Target(provider: .fcm, address: .condition("'news' in topics && 'fr' in topics")),
            ])
        #expect(
            event.notification
                == Event.Notification(
                    title: "New message", subtitle: "in #general", body: "Alice: hi", badge: 3,
                    sound: Event.Sound(name: "default"), image: "https://cdn.example.com/a.jpg", category: "MESSAGE",
                    threadID: "t-42", titleLocKey: "...", titleLocArgs: [], locKey: "...", locArgs: []
                ))
        #expect(event.data == ["screen": "chat", "thread_id": 42])
        #expect(event.pushType == .alert)
        #expect(event.priority == .high)
        #expect(event.expiry == .ttl(seconds: 3600))
        #expect(event.collapseID == "thread-42")
        #expect(event.contentAvailable == false)
        #expect(event.mutableContent == false)
        #expect(event.excludeTokens == ["token-of-the-sender"])
        #expect(
            event.apns
                == APNsOverrides(
                    headers: ["apns-...": "..."], payload: ["aps": ["interruption-level": "time-sensitive"]]
                ))
        #expect(
            event.fcm == [
                "android": ["notification": ["channel_id": "messages"]], "apns": .object([:]),
                "webpush": .object([:]), "fcm_options": .object([:]),
            ])
        #expect(event.context == ["user_id": "u-1"])
        #expect(event.resolvedPushType == .alert)
        #expect(event.resolvedPriority == .high)
    }

    @Test func theRawBufferEntryPointDecodesTheSameEvent() throws {
        let bytes = Array(Self.everyFieldExample.utf8)
        let fromRaw = try bytes.withUnsafeBytes { body in
            try Event.decode(body, fallbackID: "x", providers: .registered)
        }
        #expect(fromRaw == (try decodeEvent(Self.everyFieldExample)))
    }
}
