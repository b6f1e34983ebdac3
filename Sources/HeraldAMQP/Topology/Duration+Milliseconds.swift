extension Duration {
    /// Whole milliseconds, truncated: the unit of RabbitMQ's time arguments
    /// (`x-message-ttl`, `x-consumer-timeout`).
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
