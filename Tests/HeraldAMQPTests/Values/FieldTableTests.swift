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
        let properties = AMQPProperties(contentType: "application/json", headers: ["a": "b"], persistent: true,
                                        messageID: "evt-1", timestamp: 42)
        let back = AMQPProperties(properties.encoded(pool: pool.pool))
        #expect(back == properties)
        #expect(back.correlationID == nil)
        #expect(AMQPProperties(AMQPProperties().encoded(pool: pool.pool)).persistent == false)
    }
}
