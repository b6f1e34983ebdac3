import HeraldCore
import HeraldFCM
import HeraldProviders
import Testing

/// What the FCM rules read of an event: its FID targets and its `fcm` section.
@Suite struct FCMEventDecodingTests {
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

    /// A FID target names a device by its Firebase installation ID: kept as
    /// given (base64 is case-sensitive), of any length (FCM judges that), and
    /// its field name is `fid` wherever addresses are written.
    @Test func anFCMTargetMayNameADeviceByItsFID() throws {
        let event = try decodeEvent(
            #"{"targets":[{"provider":"fcm","fid":"cR1Zm2QmSSmvP3bqAbcDef"},{"provider":"fcm","fid":"eUx0ZzQ3LTY"},"#
                + #"{"provider":"fcm","fid":"c+not/base64"},{"provider":"fcm","token":"t","fid":null}]}"#)
        #expect(
            event.targets == [
                Target(provider: .fcm, address: .fid("cR1Zm2QmSSmvP3bqAbcDef")),
                Target(provider: .fcm, address: .fid("eUx0ZzQ3LTY")),
                Target(provider: .fcm, address: .token("t")),
            ])
        #expect(event.targets.map(\.address.field) == ["fid", "fid", "token"])
        #expect(event.targets.map(\.address.isDevice) == [true, true, true])
        #expect(event.targets[0].token == nil)
        let invalid = try #require(event.invalidTargets.first)
        #expect(invalid.index == 2)
        #expect(invalid.provider == .fcm)
        #expect(invalid.address == .fid("c+not/base64"))
        #expect(invalid.status == .invalidToken)
    }

    @Test(arguments: [
        (#""fcm":{"android":1}"#, "fcm.android: expected an object, found 1"),
        (#""fcm":{"andriod":{}}"#, #"fcm.andriod: unknown field (did you mean "android"?)"#),
    ])
    func wrongTypesAreRejectedNamingTheField(fields: String, message: String) {
        #expect(eventError(event(fields)) == message)
    }
}
