import HeraldAMQP
import Testing

@Suite("AMQP URLs")
struct AMQPURLTests {
    @Test func percentTwoFVhostIsTheDefaultVhost() throws {
        let url = try AMQPURL("amqp://guest:guest@127.0.0.1:5672/%2f")
        #expect(url.vhost == "/")
        #expect(url.host == "127.0.0.1")
        #expect(url.port == 5672)
        #expect(!url.tls)
    }

    @Test func credentialsAndVhostArePercentDecoded() throws {
        let url = try AMQPURL("amqp://us%40er:p%3Ass%2Fw@broker.example:5673/prod%2Feu")
        #expect(url.user == "us@er")
        #expect(url.password == "p:ss/w")
        #expect(url.vhost == "prod/eu")
        #expect(url.port == 5673)
    }

    @Test func amqpsDefaultsToPort5671AndMissingPartsToGuestAndSlash() throws {
        let url = try AMQPURL("amqps://rabbit.internal")
        #expect(url.tls)
        #expect(url.port == 5671)
        #expect(url.user == "guest")
        #expect(url.vhost == "/")
    }

    @Test func ipv6HostsGoInBrackets() throws {
        let url = try AMQPURL("amqp://[::1]:5680/v")
        #expect(url.host == "::1")
        #expect(url.port == 5680)
        #expect(url.description == "amqp://guest:***@[::1]:5680/v")
    }

    @Test func descriptionMasksThePassword() throws {
        let url = try AMQPURL("amqp://app:hunter2@h/%2f")
        #expect(url.description == "amqp://app:***@h:5672/%2F")
        #expect(!url.description.contains("hunter2"))
    }

    @Test(arguments: [
        ("http://h/", "scheme must be amqp:// or amqps://"),
        ("amqp://h:99999/", "port must be 1-65535"),
        ("amqp://h/a/b", "vhost must be one path segment (write / as %2f)"),
        ("amqp://h/%zz", "bad percent-encoding in vhost"),
    ])
    func malformedURLsAreRejectedWithTheReason(text: String, reason: String) throws {
        let error = try #require(throws: AMQPError.self) { try AMQPURL(text) }
        #expect(error.code == .invalidArgument)
        #expect(error.detail == reason)
        #expect(!error.isRetryable)
    }
}
