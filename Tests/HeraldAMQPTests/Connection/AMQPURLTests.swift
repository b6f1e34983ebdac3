import HeraldAMQP
import HeraldCore
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
        ("amqp://h/%C3%28", "bad percent-encoding in vhost"),
        ("amqp://h:", "port must be 1-65535"),
        ("amqp://h:+5", "port must be 1-65535"),
        ("amqp://", "the URL names no host"),
        ("amqp://u:p@:5672", "the URL names no host"),
        ("amqp://h o", "the host name has a character host names cannot have"),
        ("amqp://[::g]", "the IPv6 host has a character IPv6 addresses cannot have"),
        (
            "amqps://h/?verify=verify_none",
            "a query (?...) is not read, so its parameters would not take effect (a ? in a user name or password is written %3F)"
        ),
        ("amqp://u:p#w@h", "'#' has no place in an AMQP URL (a # in a user name or password is written %23)"),
    ])
    func malformedURLsAreRejectedWithTheReason(text: String, reason: String) throws {
        let error = try #require(throws: AMQPError.self) { try AMQPURL(text) }
        #expect(error.code == .invalidArgument)
        #expect(error.detail == reason)
        #expect(!error.isRetryable)
    }

    /// The user info ends at the last @ before the host, the user name at the first :.
    @Test func anUnescapedAtOrColonInThePasswordIsPartOfIt() throws {
        let url = try AMQPURL("amqp://u:p@h:p@host")
        #expect(url.user == "u")
        #expect(url.password == "p@h:p")
        #expect(url.host == "host")
    }

    /// URLSecrets (HeraldCore, which shows URLs as written) masks every
    /// password AMQPURL reads from them, and those of URLs it refuses for a
    /// delimiter in the password.
    @Test func urlSecretsMasksEveryPasswordAMQPURLReads() {
        let passwords = ["s3cret", "p@ss", "p:ss", "a@b:c", "p%40ss", "pa/ss", "pa?ss", "pa#ss", "x"]
        for password in passwords {
            for text in [
                "amqp://herald:\(password)@broker", "amqps://herald:\(password)@broker:5671/%2f",
                "amqp://herald:\(password)@[::1]:5672/v", "amqp://herald:\(password)@broker/v@h",
            ] {
                let shown = URLSecrets.redacted(text)
                #expect(!shown.contains(password), "\(text) is shown as \(shown)")
                if let url = try? AMQPURL(text) {
                    #expect(
                        !shown.contains(url.password),
                        "\(text): AMQPURL reads password \(url.password), shown as \(shown)")
                }
            }
        }
    }
}
