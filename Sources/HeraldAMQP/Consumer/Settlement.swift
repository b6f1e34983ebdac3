/// How a delivery is settled: the three AMQP answers a consumer can give.
public enum Settlement: Sendable, Equatable {
    /// Done with it (`multiple`: also every earlier unsettled delivery on the channel).
    case ack(multiple: Bool)
    /// Not done: back to the queue (`requeue`) or to the dead-letter exchange.
    case nack(multiple: Bool, requeue: Bool)
    /// Like nack for one delivery; with `requeue: false` it is dead-lettered.
    case reject(requeue: Bool)

    var name: String {
        switch self {
        case .ack: "basic.ack"
        case .nack: "basic.nack"
        case .reject: "basic.reject"
        }
    }

    var multiple: Bool {
        switch self {
        case .ack(let multiple), .nack(let multiple, _): multiple
        case .reject: false
        }
    }
}
