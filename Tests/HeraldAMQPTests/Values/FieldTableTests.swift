import CRabbitMQ
@testable import HeraldAMQP
import Testing

@Suite("Field tables and properties through rabbitmq-c (no sockets)")
struct FieldTableTests {
    @Test func everyFieldKindSurvivesARoundTripThroughTheCWireFormat() throws {
        let table: AMQPTable = [
            "x-herald-attempt": 3, "text": "héllo", "flag": true, "ratio": .double(0.25), "raw": .bytes([0, 1, 255]),
            "when": .timestamp(1_764_000_000), "nested": .table(["inner": "v"]), "list": .array(["a", 1, false]),
            "nothing": .void,
        ]
        let pool = AMQPScratchPool()
        let encoded = AMQPTableCodec.encode(table, into: pool.pool)
        // Serialise to AMQP wire bytes and back, as the broker would see them.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset = 0
        var input = encoded
        let status = buffer.withUnsafeMutableBytes { raw in
            amqp_encode_table(amqp_bytes_t(len: raw.count, bytes: raw.baseAddress), &input, &offset)
        }
        #expect(status == 0)
        var decoded = amqp_table_t()
        var readOffset = 0
        let decodeStatus = buffer.withUnsafeMutableBytes { raw in
            amqp_decode_table(amqp_bytes_t(len: offset, bytes: raw.baseAddress), pool.pool, &decoded, &readOffset)
        }
        #expect(decodeStatus == 0)
        #expect(AMQPTableCodec.decode(decoded) == table)
    }

    @Test func propertiesKeepOnlyWhatWasSet() {
        let pool = AMQPScratchPool()
        let properties = AMQPProperties(
            contentType: "application/json", headers: ["a": "b"], persistent: true,
            messageID: "evt-1", timestamp: 42)
        let back = AMQPProperties(properties.encoded(pool: pool.pool))
        #expect(back == properties)
        #expect(back.correlationID == nil)
        #expect(AMQPProperties(AMQPProperties().encoded(pool: pool.pool)).persistent == false)
    }
}

/// Found by FuzzAMQPProperties (Fuzz/Corpus/FuzzAMQPProperties/header-key-not-utf8.bin).
@Suite("Header names that are not UTF-8")
struct NonUTF8HeaderNameTests {
    /// A 100-byte header name that is not UTF-8 decodes to 100 replacement
    /// characters, 300 bytes: a retry or dead letter copying it must fail as
    /// that message's problem, not reach rabbitmq-c (which writes a short
    /// string's length in one byte without checking it, corrupting the frame).
    @Test func aNameThatGrowsPastTheShortStringLimitWhenDecodedIsRefusedBeforeEncoding() {
        var keyBytes = [UInt8](repeating: 0xFF, count: 100)
        let table = keyBytes.withUnsafeMutableBytes { raw -> AMQPTable in
            var entry = amqp_table_entry_t(
                key: amqp_bytes_t(len: 100, bytes: raw.baseAddress), value: amqp_field_value_t())
            entry.value.kind = UInt8(AMQP_FIELD_KIND_BOOLEAN.rawValue)
            entry.value.value.boolean = 1
            return withUnsafeMutablePointer(to: &entry) {
                AMQPTableCodec.decode(amqp_table_t(num_entries: 1, entries: $0))
            }
        }
        let key = table.keys.first ?? ""
        #expect(key.utf8.count == 300)
        let message = AMQPMessage(exchange: "", routingKey: "q", body: [], properties: AMQPProperties(headers: table))
        #expect(
            message.encodingProblem(frameMax: 131_072)
                == "header name \(String(repeating: "\u{FFFD}", count: 40))… is 300 bytes, over the AMQP short-string limit of 255"
        )
    }
}
