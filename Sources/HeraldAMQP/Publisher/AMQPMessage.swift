/// A message to publish: where it goes (exchange, routing key), its body and properties.
public struct AMQPMessage: Sendable, Equatable {
    public var exchange: String
    public var routingKey: String
    public var body: [UInt8]
    public var properties: AMQPProperties

    public init(exchange: String, routingKey: String, body: [UInt8], properties: AMQPProperties = AMQPProperties()) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.body = body
        self.properties = properties
    }
}
