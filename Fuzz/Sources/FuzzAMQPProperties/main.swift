// Fuzzes AMQP header and property decoding: the bytes as an encoded
// `basic` content header (properties with their header table) and as a
// field table, decoded by rabbitmq-c exactly as a frame from the broker is,
// then copied into Swift (`AMQPProperties`, `AMQPTableCodec`), reduced to
// the string headers the pipeline reads, and read as Herald's attempt and
// receipt-time headers. What decodes must encode and decode back alike.
import CRabbitMQ
import FuzzSupport
@testable import HeraldAMQP
import HeraldCore
import HeraldPipeline
@testable import HeraldService

let basicClass = UInt16(AMQP_BASIC_CLASS)

/// A canonical text of properties: table keys sorted, doubles as text (NaN compares equal).
func canonical(_ p: AMQPProperties) -> String {
    let fields: [String?] = [
        p.contentType, p.contentEncoding, p.priority.map { String($0) }, p.correlationID, p.replyTo, p.expiration,
        p.messageID, p.timestamp.map { String($0) }, p.type, p.userID, p.appID,
    ]
    return fields.map { $0 ?? "-" }.joined(separator: "|") + AMQPFieldValue.table(p.headers).description
}

/// Reads `headers` the way `herald run` does for each delivery.
func readAsPipeline(_ headers: AMQPTable, messageID: String?) {
    let incoming = IncomingEvent(body: [], routingKey: "fuzz", headers: headers.stringValues, messageID: messageID)
    precondition(incoming.claimedAttempt >= 1, "attempt \(incoming.claimedAttempt) below 1")
    _ = incoming.claimedReceivedAt
}

/// Decodes `bytes` as `basic` properties into Swift, if rabbitmq-c accepts them.
func decodeProperties(_ bytes: amqp_bytes_t, pool: inout amqp_pool_t) -> AMQPProperties? {
    var decoded: UnsafeMutableRawPointer?
    guard amqp_decode_properties(basicClass, &pool, bytes, &decoded) == 0, let decoded else { return nil }
    return AMQPProperties(decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee)
}

FuzzDriver.run { input in
    var pool = amqp_pool_t()
    init_amqp_pool(&pool, 4096)
    defer { empty_amqp_pool(&pool) }
    let bytes = amqp_bytes_t(len: input.count, bytes: UnsafeMutableRawPointer(mutating: input.baseAddress))

    if let properties = decodeProperties(bytes, pool: &pool) {
        readAsPipeline(properties.headers, messageID: properties.messageID)
        // Herald's encoder writes what it decoded, when the publish path would let it
        // (`encodingProblem`: a header name that grew past 255 bytes as replacement
        // characters never reaches the encoder); rabbitmq-c must read it back alike.
        let message = AMQPMessage(exchange: "", routingKey: "", body: [], properties: properties)
        guard message.encodingProblem(frameMax: 131_072) == nil else { return }
        var c = properties.encoded(pool: &pool)
        let capacity = input.count * 5 + 1024
        if let buffer = amqp_pool_alloc(&pool, capacity) {
            let written = amqp_encode_properties(basicClass, &c, amqp_bytes_t(len: capacity, bytes: buffer))
            if written >= 0 {
                let again = decodeProperties(amqp_bytes_t(len: Int(written), bytes: buffer), pool: &pool)
                precondition(
                    again.map(canonical) == canonical(properties),
                    "properties changed in an encode/decode round trip: \(canonical(properties))")
            }
        }
    }

    var table = amqp_table_t()
    var offset = 0
    if amqp_decode_table(bytes, &pool, &table, &offset) == 0 {
        readAsPipeline(AMQPTableCodec.decode(table), messageID: nil)
    }
}
