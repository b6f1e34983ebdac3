/// How long a queue declared through HeraldAMQP lives. There is no third
/// choice on purpose: a queue that is neither durable nor exclusive (a
/// "transient non-exclusive" queue) is refused by RabbitMQ 4.3 by default
/// (deprecated feature `transient_nonexcl_queues`), so no declaration made
/// here can ask for one.
public enum QueueLifetime: Sendable, Equatable {
    /// Survives broker restarts; gone only when deleted. Every queue of
    /// Herald's topology is durable.
    case durable
    /// Belongs to the declaring connection and is deleted with it, including
    /// when that connection is lost and replaced by a new one: a consumer of
    /// it then ends with 404 on the reconnect.
    case exclusive
}
