import HeraldAPNs
import HeraldCore
import HeraldPipeline
import HeraldProviders
import Testing

/// An APNs device target's own `environment` and `apns_topic` (a
/// registration's overrides, kept in its retries, or given by a publisher).
@Suite struct APNsDeviceTargetTests {
    func decode(_ targets: String) throws -> Event {
        try Event.decode(
            Array(#"{"id": "e", "app": "chat", "targets": \#(targets)}"#.utf8), fallbackID: "m", providers: .registered)
    }

    @Test func anAPNsTargetMayNameItsEnvironmentAndTopic() throws {
        let event = try decode(
            #"[{"provider": "apns", "token": "ab", "environment": "sandbox", "apns_topic": "com.example.chat.beta"}]"#)
        #expect(
            event.targets == [
                Target(
                    provider: .apns, address: .token("ab"),
                    apns: APNsDeviceOverrides(environment: .sandbox, topic: "com.example.chat.beta"))
            ])
    }

    @Test func aBadEnvironmentOrTopicIsThatTargetsProblem() throws {
        let event = try decode(
            #"""
            [{"provider": "apns", "token": "ab", "environment": "staging"}, {"provider": "apns", "token": "ab", "apns_topic": "a b"},
             {"provider": "fcm", "token": "t", "environment": "sandbox"}, {"provider": "apns", "token": "cd"}]
            """#)
        #expect(event.targets == [Target(provider: .apns, address: .token("cd"))])
        #expect(
            event.invalidTargets.map(\.error.description) == [
                #"targets[0].environment: expected production or sandbox, found "staging""#,
                "targets[1].apns_topic: has a character other than printable ASCII (a bundle ID such as com.example.app)",
                "targets[2].environment: is for APNs targets only, not fcm targets",
            ])
    }

    /// A registered device's channel, APNs environment and topic stay with its retry.
    @Test func aRetryKeepsADevicesChannelEnvironmentAndTopic() throws {
        let targets = [
            Target(
                provider: .apns, address: .token("ab"), channel: "user:42",
                apns: APNsDeviceOverrides(environment: .sandbox, topic: "com.example.beta"))
        ]
        let body = try #require(
            RetryBody.make(
                original: Array(#"{"app":"chat","targets":[{"channel":"user:42"}]}"#.utf8),
                eventID: "e", targets: targets, providers: .registered))
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"app":"chat","targets":[{"provider":"apns","token":"ab","channel":"user:42","environment":"sandbox","apns_topic":"com.example.beta"}],"id":"e"}"#
        )
        #expect(try Event.decode(body, fallbackID: "other", providers: .registered).targets == targets)
    }
}
