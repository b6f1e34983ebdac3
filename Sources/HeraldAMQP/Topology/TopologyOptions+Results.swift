extension TopologyOptions {
    /// A message for the results exchange — an event's outcome or a registry
    /// command's result: persistent JSON, its `message-id` the id of the
    /// event or command it answers, when it has one (docs/asyncapi.yaml).
    public func resultMessage(routingKey: String, body: [UInt8], answering id: String?) -> AMQPMessage {
        AMQPMessage(
            exchange: resultsExchange, routingKey: routingKey, body: body,
            properties: AMQPProperties(contentType: "application/json", persistent: true, messageID: id))
    }
}
