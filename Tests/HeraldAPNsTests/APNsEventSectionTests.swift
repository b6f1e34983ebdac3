import HeraldAPNs
import HeraldCore
import HeraldProviders
import Testing

/// The event's `apns` section, read by the APNs rules into ``APNsOverrides``.
@Suite struct APNsEventSectionTests {
    /// A valid event with `fields` added.
    private func event(_ fields: String) -> String {
        #"{"provider":"fcm","token":"t",\#(fields)}"#
    }

    private func decodeEvent(_ text: String) throws -> Event {
        try Event.decode(Array(text.utf8), fallbackID: "msg-1", providers: .registered)
    }

    private func eventError(_ text: String) -> String? {
        do {
            _ = try Event.decode(Array(text.utf8), fallbackID: "msg-1", providers: .registered)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func apnsHeaderNamesAreLowerCased() throws {
        let event = try decodeEvent(#"{"provider":"fcm","token":"t","apns":{"headers":{"APNs-Priority":"5"}}}"#)
        #expect(event.apns?.headers == ["apns-priority": "5"])
    }

    @Test(arguments: [
        (#""apns":[]"#, "apns: expected an object, found an array"),
        (#""apns":{"header":{}}"#, #"apns.header: unknown field (did you mean "headers"?)"#),
        (#""apns":{"headers":{"apns-priority":10}}"#, "apns.headers.apns-priority: expected a string, found 10"),
        (
            #""apns":{"headers":{"Authorization":"bearer x"}}"#,
            #"apns.headers.Authorization: Herald sets "authorization" itself"#
        ),
        (
            #""apns":{"headers":{"bad name":"x"}}"#,
            #"apns.headers."bad name": not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~)"#
        ),
        (
            #""apns":{"headers":{"x-a":"1\r\nx-b: 2"}}"#,
            "apns.headers.x-a: header values may not contain control characters"
        ),
        (
            #""apns":{"headers":{"x-a":"1","X-A":"2"}}"#,
            #"apns.headers.X-A: repeats header "x-a" in another letter case"#
        ),
        (#""apns":{"payload":1}"#, "apns.payload: expected an object, found 1"),
    ])
    func wrongTypesAreRejectedNamingTheField(fields: String, message: String) {
        #expect(eventError(event(fields)) == message)
    }
}
