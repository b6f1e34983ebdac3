import CRabbitMQ
@testable import HeraldAMQP
import Testing

/// Numbers from config and from the broker that flow into fixed-width AMQP fields.
@Suite("Connection tuning and content framing (no sockets)")
struct HandshakeTests {
    /// A heartbeat over 65 535 s with a broker proposing 0 once trapped in a UInt16 conversion.
    @Test func theHeartbeatFitsInSixteenBitsWhateverIsConfigured() {
        #expect(RabbitConnection.negotiatedHeartbeat(ours: .seconds(100_000), broker: 0) == 65_535)
        #expect(RabbitConnection.negotiatedHeartbeat(ours: .seconds(Int64.max), broker: 0) == 65_535)
        #expect(RabbitConnection.negotiatedHeartbeat(ours: .seconds(100_000), broker: 60) == 60)
        #expect(RabbitConnection.negotiatedHeartbeat(ours: .seconds(10), broker: 60) == 10)
        #expect(RabbitConnection.negotiatedHeartbeat(ours: .seconds(-5), broker: 60) == 0)
        #expect(RabbitConnection.negotiatedHeartbeat(ours: .zero, broker: 60) == 0)
    }

    /// A content header announcing 2^64 - 1 bytes neither traps nor reserves
    /// that much; the body still completes when its (small) frames arrive.
    @Test func anAnnouncedBodySizeIsNotTrustedWithMemory() {
        var assembler = ContentAssembler()
        assembler.begin(.delivery(consumerTag: "c", deliveryTag: 1, redelivered: false, exchange: "x", routingKey: "k"))
        var header = amqp_frame_t()
        header.payload.properties.body_size = UInt64.max
        #expect(assembler.header(header) == nil)
        #expect(!assembler.isIdle)

        assembler.begin(.delivery(consumerTag: "c", deliveryTag: 2, redelivered: false, exchange: "x", routingKey: "k"))
        header.payload.properties.body_size = 3
        #expect(assembler.header(header) == nil)
        var body = amqp_frame_t()
        let bytes: [UInt8] = [1, 2, 3]
        let content = bytes.withUnsafeBytes { raw -> ContentAssembler.Content? in
            body.payload.body_fragment = amqp_bytes_t(len: 3, bytes: UnsafeMutableRawPointer(mutating: raw.baseAddress))
            return assembler.bodyFragment(body)
        }
        #expect(content?.body == [1, 2, 3])
    }
}
