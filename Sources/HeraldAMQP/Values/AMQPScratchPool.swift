import CRabbitMQ

/// A scratch `amqp_pool_t` for encoding tables and properties; emptied in deinit.
final class AMQPScratchPool {
    let pool: UnsafeMutablePointer<amqp_pool_t>

    init(pageSize: Int = 4096) {
        pool = .allocate(capacity: 1)
        init_amqp_pool(pool, pageSize)
    }

    deinit {
        empty_amqp_pool(pool)
        pool.deallocate()
    }

    /// Forgets everything allocated so far, keeping the pages for reuse.
    func recycle() { recycle_amqp_pool(pool) }
}
