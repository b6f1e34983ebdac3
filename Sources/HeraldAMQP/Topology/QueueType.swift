/// RabbitMQ queue type for Herald's queues (`x-queue-type`).
public enum QueueType: String, Sendable, Equatable, CaseIterable {
    /// Replicated, durable, poison-message limit (`x-delivery-limit`), at-least-once dead-lettering.
    case quorum
    /// Lighter, single-node; dead-lettering is at-most-once.
    case classic
}
