import HeraldCoreTestSupport
import Testing
@testable import HeraldCore

@Suite("Event decoding: refused events and their messages")
struct EventErrorTests {
    /// A valid event with `fields` added.
    private func event(_ fields: String) -> String {
        #"{"provider":"fcm","token":"t",\#(fields)}"#
    }

    @Test func aBodyThatIsNotJSONIsRejectedWithTheParserMessage() {
        #expect(eventError("hello") == "body: unexpected 'h' at byte 0 (line 1, column 1): expected a value")
        #expect(eventError("") == "body: unexpected end of input at byte 0 (line 1, column 1): expected a value")
        #expect(eventError(#"{"id":"a","id":"b"}"#) == #"body: duplicate key "id" at byte 10 (line 1, column 11)"#)
    }

    @Test func aBodyThatIsNotAnObjectIsRejected() {
        #expect(eventError("[]") == "event: expected a JSON object, found an array")
        #expect(eventError("\"x\"") == "event: expected a JSON object, found a string")
        #expect(eventError("null") == "event: expected a JSON object, found null")
    }

    @Test func invalidUTF8IsRejected() throws {
        let body = Array(#"{"id":"ab"#.utf8) + [0xC3, 0x28] + Array(#"","provider":"fcm","token":"t"}"#.utf8)
        #expect(eventError(body) == "body: invalid UTF-8 at byte 9 (line 1, column 10)")
    }

    @Test func deepNestingIsRejectedAtThirtyTwoLevels() {
        let deep = event(#""data":{"a":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}")
        #expect(eventError(deep) == "body: nesting deeper than 32 levels at byte 72 (line 1, column 73)")
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(eventError(hostile) == "body: nesting deeper than 32 levels at byte 32 (line 1, column 33)")
    }

    @Test func aTenMegabyteBodyIsRejectedBySizeBeforeParsing() {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 10 * 1024 * 1024)
        #expect(eventError(body) == "body: event is 10485760 bytes, over the limit of 1048576")
    }

    @Test(arguments: [
        (#""id":42"#, "id: expected a non-empty string, found 42"),
        (#""id":"""#, #"id: expected a non-empty string, found """#),
        (#""app":5"#, "app: expected an app name (1 to 64 letters, digits, '-' or '_'), found 5"),
        (#""app":"chat.v2""#, #"app: expected an app name (1 to 64 letters, digits, '-' or '_'), found "chat.v2""#),
        (#""notification":"hi""#, #"notification: expected an object, found "hi""#),
        (#""notification":{"title":1}"#, "notification.title: expected a string, found 1"),
        (#""notification":{"tilte":"x"}"#, #"notification.tilte: unknown field (did you mean "title"?)"#),
        (#""notification":{"badge":-1}"#, "notification.badge: expected a non-negative integer, found -1"),
        (#""notification":{"badge":"3"}"#, #"notification.badge: expected a non-negative integer, found "3""#),
        (#""notification":{"badge":1.5}"#, "notification.badge: expected a non-negative integer, found 1.5"),
        (
            #""notification":{"sound":3}"#,
            #"notification.sound: expected a sound name or an object with "name", "critical" and "volume", found 3"#
        ),
        (
            #""notification":{"sound":""}"#,
            #"notification.sound: expected a sound name or an object with "name", "critical" and "volume", found """#
        ),
        (
            #""notification":{"sound":{}}"#,
            #"notification.sound.name: missing; give the sound file's name or "default""#
        ),
        (
            #""notification":{"sound":{"name":"a","volume":2}}"#,
            "notification.sound.volume: expected a number from 0 to 1, found 2"
        ),
        (
            #""notification":{"sound":{"name":"a","critical":1}}"#,
            "notification.sound.critical: expected true or false, found 1"
        ),
        (
            #""notification":{"sound":{"name":"a","volum":1}}"#,
            #"notification.sound.volum: unknown field (did you mean "volume"?)"#
        ),
        (#""notification":{"loc_args":[1]}"#, "notification.loc_args[0]: expected a string, found 1"),
        (
            #""notification":{"title_loc_args":"a"}"#,
            #"notification.title_loc_args: expected an array of strings, found "a""#
        ),
        (#""data":[]"#, "data: expected an object, found an array"),
        (#""push_type":1"#, "push_type: expected a push type name, found 1"),
        (#""push_type":"alrt""#, #"push_type: unknown push type "alrt" (did you mean "alert"?)"#),
        (
            #""push_type":"zzzzzz""#,
            #"push_type: unknown push type "zzzzzz" (expected alert, background, voip, liveactivity, complication, fileprovider, mdm, location, pushtotalk or widgets)"#
        ),
        (#""push_type":"Alert""#, #"push_type: unknown push type "Alert" (did you mean "alert"?)"#),
        (
            #""priority":"hgh""#,
            #"priority: unknown priority "hgh" (expected high, normal, low, 10, 5 or 1; did you mean "high"?)"#
        ),
        (#""priority":7"#, "priority: expected high, normal, low, 10, 5 or 1, found 7"),
        (#""priority":true"#, "priority: expected high, normal, low, 10, 5 or 1, found true"),
        (#""ttl":"abc""#, #"ttl: expected a non-negative integer, found "abc""#),
        (#""ttl":-1"#, "ttl: expected a non-negative integer, found -1"),
        (#""ttl":1.5"#, "ttl: expected a non-negative integer, found 1.5"),
        (#""ttl":1e30"#, "ttl: expected a non-negative integer, found 1e30"),
        (#""expires_at":5"#, #"expires_at: expected an RFC 3339 time such as "2026-11-30T10:00:00Z", found 5"#),
        (
            #""expires_at":"tomorrow""#,
            #"expires_at: expected an RFC 3339 time such as "2026-11-30T10:00:00Z", found "tomorrow""#
        ),
        (
            #""ttl":60,"expires_at":"2026-11-30T10:00:00Z""#,
            #"ttl: cannot be combined with "expires_at"; give one of them"#
        ),
        (#""collapse_id":1"#, "collapse_id: expected a non-empty string, found 1"),
        (#""content_available":"yes""#, #"content_available: expected true or false, found "yes""#),
        (#""mutable_content":1"#, "mutable_content: expected true or false, found 1"),
        (#""debug":"yes""#, #"debug: expected true or false, found "yes""#),
        (#""exclude_tokens":"t""#, #"exclude_tokens: expected an array of strings, found "t""#),
        (#""exclude_tokens":["a",{}]"#, "exclude_tokens[1]: expected a string, found an object"),
        (#""context":"x""#, #"context: expected an object, found "x""#),
    ])
    func wrongTypesAreRejectedNamingTheField(fields: String, message: String) {
        #expect(eventError(event(fields)) == message)
    }

    @Test(arguments: [
        (#"{"targets":[]}"#, "targets: is empty; give at least one target"),
        (#"{"targets":"x"}"#, #"targets: expected an array of targets, found "x""#),
        (#"{}"#, #"targets: missing; give "targets" or the shorthand "provider" + "token""#),
        (
            #"{"targets":[{"provider":"fcm","token":"a"}],"token":"b"}"#,
            #"targets: cannot be combined with the shorthand "token"; give either "targets" or "provider" + "token""#
        ),
    ])
    func problemsWithTheTargetListRejectTheEvent(body: String, message: String) {
        #expect(eventError(body) == message)
    }

    @Test func aTokenOverTheLengthLimitIsAnInvalidToken() throws {
        let token = String(repeating: "a", count: 4097)
        let event = try Event.decode(
            Array(#"{"provider":"apns","token":"\#(token)"}"#.utf8), fallbackID: "m", providers: .standIns)
        #expect(event.invalidTargets.first?.detail == "token: is 4097 bytes, over the limit of 4096")
    }

    @Test func anUnreadableBodyStillGivesItsIDAndApp() {
        #expect(Event.identity(of: Array(#"{"id":"evt-1","app":"chat","targets":[],"x":1}"#.utf8)) == ("evt-1", "chat"))
        #expect(Event.identity(of: Array(#"{"id":"","app":"not an app!"}"#.utf8)) == (nil, nil))
        #expect(Event.identity(of: Array("not json".utf8)) == (nil, nil))
        #expect(Event.identity(of: Array(#"["evt-1"]"#.utf8)) == (nil, nil))
    }

    /// The id is every outcome's AMQP message-id, a short string: a longer one
    /// once stopped the instance in a publish-and-reconnect loop.
    @Test func anIDOverTheMessageIDLimitIsRejected() {
        let long = String(repeating: "é", count: 128)  // 256 UTF-8 bytes
        #expect(
            eventError(event(#""id":"\#(long)""#))
                == "id: is 256 bytes, over the limit of 255 (it is the AMQP message-id of every outcome)")
        #expect(eventError(event(#""id":"\#(String(repeating: "a", count: 255))""#)) == nil)
        // A rejected outcome does not carry it either.
        #expect(Event.identity(of: Array(#"{"id":"\#(long)","app":"chat"}"#.utf8)) == (nil, "chat"))
    }

    /// `context` is echoed in every outcome, all built at once: a 395 KB event
    /// with a large context and many targets once took a gigabyte.
    @Test func contextIsBoundedAloneAndAcrossAllOutcomes() {
        let big = #"{"k":""# + String(repeating: "x", count: 4089) + #""}"#  // 4097 bytes
        #expect(
            eventError(event(#""context":\#(big)"#))
                == "context: is 4097 bytes serialized, over the limit of 4096 (it is echoed in every outcome)")
        let fits = #"{"k":""# + String(repeating: "x", count: 4088) + #""}"#
        #expect(eventError(event(#""context":\#(fits)"#)) == nil)
        // 4096 bytes × 2049 outcomes (invalid targets too) = 8 392 704 bytes, over 8 MiB.
        let targets = (0..<2048).map { #"{"provider":"fcm","token":"t\#($0)"}"# } + [#"{"provider":"fcm"}"#]
        let body = #"{"targets":[\#(targets.joined(separator: ","))],"context":\#(fits)}"#
        #expect(
            eventError(body) == "context: 4096 bytes echoed in each of 2049 outcomes is 8392704 bytes, over the limit "
                + "of 8388608; make context smaller or split the targets over several events")
        let fewer = #"{"targets":[\#(targets.dropLast().joined(separator: ","))],"context":\#(fits)}"#
        #expect(eventError(fewer) == nil)
    }

    @Test func moreTargetsThanTheLimitAreRejected() {
        let limits = EventLimits(maxBytes: 1 << 20, maxTargets: 2, maxJSONDepth: 32)
        let body =
            #"{"targets":[{"provider":"fcm","token":"a"},{"provider":"fcm","token":"b"},{"provider":"fcm","token":"c"}]}"#
        #expect(eventError(body, limits: limits) == "targets: has 3 targets, over the limit of 2")
    }

    @Test func errorsExposeFieldAndMessageSeparately() {
        do {
            _ = try Event.decode(Array(#"{"targets":[]}"#.utf8), fallbackID: "m", providers: .standIns)
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "targets")
            #expect(error.message == "is empty; give at least one target")
        }
    }

    @Test func messagesQuoteAndShortenHostileInput() {
        let long = String(repeating: "x", count: 500)
        #expect(
            eventError(#"{"provider":"fcm","token":"t","push_type":"\#(long)"}"#)
                == #"push_type: unknown push type "\#(String(repeating: "x", count: 64))…" (expected alert, background, voip, liveactivity, complication, fileprovider, mdm, location, pushtotalk or widgets)"#
        )
        #expect(
            eventError(#"{"provider":"fcm","token":"t","ttl":"\u0007"}"#)
                == #"ttl: expected a non-negative integer, found "\u0007""#)
    }
}
