import HeraldConfig
import Testing

@Suite("amqp.url and amqp.urls")
struct AMQPAddressConfigTests {
    @Test func oneURLIsTheOnlyAddressAndAListIsShuffledByDefault() throws {
        let fixture = try ConfigFixture()
        let one = try fixture.load(ConfigFixture.minimal + "amqp: {url: \"amqp://u:p@broker:5672/%2f\"}\n")
            .configuration.amqp
        #expect(one.addresses.map(\.url) == ["amqp://u:p@broker:5672/%2f"])
        let cluster = try fixture.load(
            ConfigFixture.minimal + """
                amqp:
                  urls: ["amqp://u:p@node1:5672/%2f", "amqps://v:q@node2:5671/%2f"]
                """
        ).configuration.amqp
        #expect(cluster.addresses.map(\.url) == ["amqp://u:p@node1:5672/%2f", "amqps://v:q@node2:5671/%2f"])
        #expect(cluster.shuffle)
        let ordered = try fixture.load(ConfigFixture.minimal + "amqp: {urls: [\"amqp://node1\"], shuffle: false}\n")
            .configuration.amqp
        #expect(!ordered.shuffle)
    }

    @Test func bothFormsAndAnEmptyListAreErrors() throws {
        let fixture = try ConfigFixture()
        #expect(
            fixture.errors(ConfigFixture.minimal + "amqp: {url: \"amqp://a\", urls: [\"amqp://b\"]}\n") == [
                "DIR/config.yaml:10:31: amqp.urls: set either url (one address) or urls (the nodes of a cluster), not both"
            ])
        #expect(
            fixture.errors(ConfigFixture.minimal + "amqp: {urls: []}\n") == [
                "DIR/config.yaml:10:14: amqp.urls: expected at least one address"
            ])
    }

    /// What an address may be is AMQPURL's rule alone, asked by the commands
    /// after loading (Tests/HeraldCLITests/AMQPAddressCheckTests.swift): the
    /// validator has no parser of its own that could disagree with it.
    @Test func theValidatorLeavesTheAddressesToAMQPURL() throws {
        let fixture = try ConfigFixture()
        let loaded = try fixture.load(ConfigFixture.minimal + "amqp: {urls: [\"amqp://node1:0\", \"http://node2\"]}\n")
        #expect(loaded.configuration.amqp.addresses.map(\.url) == ["amqp://node1:0", "http://node2"])
    }

    /// An entry of `urls` may be a mapping: its `ca_file` replaces the
    /// section's for that node, its `cert_file` and `key_file` replace the
    /// section's pair; what it does not name comes from the section.
    @Test func aMappingsTLSFilesOverrideTheSectionsForThatNodeOnly() throws {
        let fixture = try ConfigFixture()
        for name in ["ca.pem", "client.pem", "client.key", "node2-ca.pem", "node3.pem", "node3.key"] {
            try fixture.write(name, "x")
        }
        let amqp = try fixture.load(
            ConfigFixture.minimal + """
                amqp:
                  ca_file: ca.pem
                  cert_file: client.pem
                  key_file: client.key
                  urls:
                    - amqps://u:p@node1:5671/%2f
                    - {url: "amqps://u:p@node2:5671/%2f", ca_file: node2-ca.pem}
                    - {url: "amqps://u:p@node3:5671/%2f", cert_file: node3.pem, key_file: node3.key}
                """
        ).configuration.amqp
        #expect(
            amqp.addresses.map(\.url) == [
                "amqps://u:p@node1:5671/%2f", "amqps://u:p@node2:5671/%2f", "amqps://u:p@node3:5671/%2f",
            ])
        let files = amqp.addresses.map(amqp.withTLSFiles).map { [$0.caFile, $0.certFile, $0.keyFile] }
        #expect(
            files == [
                ["ca.pem", "client.pem", "client.key"],
                ["node2-ca.pem", "client.pem", "client.key"],
                ["ca.pem", "node3.pem", "node3.key"],
            ])
        #expect(amqp.urlKey(0, in: .root.key("amqp")).description == "amqp.urls[0]")
        #expect(amqp.urlKey(1, in: .root.key("amqp")).description == "amqp.urls[1].url")
    }

    @Test func aMappingsUnknownKeysMissingFilesAndHalfAPairAreErrorsAtTheNode() throws {
        let fixture = try ConfigFixture()
        try fixture.write("ca.pem", "x")
        #expect(
            fixture.errors(
                ConfigFixture.minimal + """
                    amqp:
                      urls:
                        - {url: "amqps://node1", cafile: ca.pem}
                        - {url: "amqps://node2", ca_file: missing.pem}
                        - {url: "amqps://node3", cert_file: ca.pem}
                        - {url: "amqp://node4", ca_file: ca.pem}
                    """) == [
                    "DIR/config.yaml:12:30: amqp.urls[0].cafile: unknown key 'cafile' (did you mean 'ca_file'?)",
                    "DIR/config.yaml:13:39: amqp.urls[1].ca_file: CA file 'DIR/missing.pem' does not exist",
                    "DIR/config.yaml:14:41: amqp.urls[2].cert_file: cert_file needs key_file too",
                    "DIR/config.yaml:15:7: amqp.urls[3]: warning: TLS files are set but the URL is not amqps://, so they are not used",
                ])
    }

    @Test func aMappingNeedsAURLAndAnEntryMustBeAStringOrAMapping() throws {
        let fixture = try ConfigFixture()
        try fixture.write("ca.pem", "x")
        #expect(
            fixture.errors(ConfigFixture.minimal + "amqp:\n  urls: [{ca_file: ca.pem}]\n") == [
                "DIR/config.yaml:11:10: amqp.urls[0]: missing required key 'url'"
            ])
        #expect(
            fixture.errors(ConfigFixture.minimal + "amqp:\n  urls: [[amqp://a, amqp://b]]\n") == [
                "DIR/config.yaml:11:10: amqp.urls[0]: expected a URL, or a mapping with url and any of ca_file, cert_file, key_file"
            ])
    }
}
