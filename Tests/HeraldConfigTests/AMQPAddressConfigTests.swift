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

    @Test func bothFormsAndAnEmptyListAreErrors() throws {
        let fixture = try ConfigFixture()
        #expect(fixture.errors(ConfigFixture.minimal + "amqp: {url: \"amqp://a\", urls: [\"amqp://b\"]}\n") == [
            "DIR/config.yaml:10:31: amqp.urls: set either url (one address) or urls (the nodes of a cluster), not both",
        ])
        #expect(fixture.errors(ConfigFixture.minimal + "amqp: {urls: []}\n") == [
            "DIR/config.yaml:10:14: amqp.urls: expected at least one address",
        ])
    }

    /// What an address may be is AMQPURL's rule alone, asked by the commands
    /// after loading (Tests/HeraldCLITests/AMQPAddressCheckTests.swift): the
    /// validator has no parser of its own that could disagree with it.
    @Test func theValidatorLeavesTheAddressesToAMQPURL() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(ConfigFixture.minimal + "amqp: {urls: [\"amqp://node1:0\", \"http://node2\"]}\n")
        #expect(loaded.configuration.amqp.addresses == ["amqp://node1:0", "http://node2"])
    }
}
