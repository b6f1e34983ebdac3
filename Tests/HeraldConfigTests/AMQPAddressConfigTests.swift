import HeraldConfig
import Testing

@Suite("amqp.url and amqp.urls")
struct AMQPAddressConfigTests {
    @Test func oneURLIsTheOnlyAddressAndAListIsShuffledByDefault() throws {
        let fixture = try ConfigFixture()
        let one = try fixture.load(ConfigFixture.minimal + "amqp: {url: \"amqp://u:p@broker:5672/%2f\"}\n").configuration.amqp
        #expect(one.addresses == ["amqp://u:p@broker:5672/%2f"])
        let cluster = try fixture.load(ConfigFixture.minimal + """
            amqp:
              urls: ["amqp://u:p@node1:5672/%2f", "amqps://v:q@node2:5671/%2f"]
            """).configuration.amqp
        #expect(cluster.addresses == ["amqp://u:p@node1:5672/%2f", "amqps://v:q@node2:5671/%2f"])
        #expect(cluster.shuffle)
        let ordered = try fixture.load(ConfigFixture.minimal + "amqp: {urls: [\"amqp://node1\"], shuffle: false}\n").configuration.amqp
        #expect(!ordered.shuffle)
    }

    @Test func bothFormsAnEmptyListAndABadAddressInTheListAreErrorsNamingTheEntry() throws {
        let fixture = try ConfigFixture()
        #expect(fixture.errors(ConfigFixture.minimal + "amqp: {url: \"amqp://a\", urls: [\"amqp://b\"]}\n") == [
            "DIR/config.yaml:10:31: amqp.urls: set either url (one address) or urls (the nodes of a cluster), not both",
        ])
        #expect(fixture.errors(ConfigFixture.minimal + "amqp: {urls: []}\n") == [
            "DIR/config.yaml:10:14: amqp.urls: expected at least one address",
        ])
        #expect(fixture.errors(ConfigFixture.minimal + "amqp: {urls: [\"amqp://node1\", \"http://node2\", \"amqp://\"]}\n") == [
            "DIR/config.yaml:10:31: amqp.urls[1]: expected an amqp:// or amqps:// URL, found scheme 'http'",
            "DIR/config.yaml:10:47: amqp.urls[2]: the URL names no host",
        ])
    }
}
