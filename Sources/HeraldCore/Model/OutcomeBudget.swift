/// The bytes one event's outcomes may carry in the fields whose size the
/// event or a provider decides: the echoed `context`, and what the provider
/// wrote (`reason`, `detail`, `provider_message_id`). Every outcome of an
/// event is built before any is published, so this bounds the memory one
/// event takes, however its providers answer.
///
/// One budget, `EventLimits.maxContextFanoutBytes` (8 MiB), spent in two
/// places: `context` is charged once per outcome when the event is decoded
/// (over the budget the event is `rejected`), and each outcome is charged
/// again as it is built, its context and the provider's words together. An
/// outcome that no longer fits loses its `detail` first, then its
/// `provider_message_id`; its reason (at most ``DeliveryReason/maxBytes``)
/// is always kept, so consumers still learn what happened.
public struct OutcomeBudget: Sendable {
    /// The budget, in bytes.
    public let limit: Int
    /// What the outcomes charged so far took.
    public private(set) var spent = 0
    /// What one outcome's `context` takes, serialized.
    let contextBytes: Int

    /// A budget of `limit` bytes for outcomes that each echo `context`.
    public init(limit: Int, context: JSONObject?) {
        self.limit = limit
        contextBytes = context?.serializedCount(excluding: []) ?? 0
    }

    /// The bytes `count` copies of a context of `size` bytes take
    /// (saturating): what decoding checks against the budget.
    public static func contextBytes(size: Int, outcomes count: Int) -> Int {
        let (product, overflow) = size.multipliedReportingOverflow(by: count)
        return overflow ? Int.max : product
    }

    /// Charges `outcome` to the budget, dropping its `detail`, then its
    /// `provider_message_id`, when the rest of the budget cannot hold them.
    public mutating func charge(_ outcome: inout Outcome) {
        let left = limit - spent
        var cost = contextBytes + (outcome.reason?.utf8.count ?? 0)
        let detail = outcome.detail?.utf8.count ?? 0
        let messageID = outcome.providerMessageID?.utf8.count ?? 0
        if cost + detail + messageID > left, outcome.detail != nil { outcome.detail = nil }
        if cost + messageID > left, outcome.providerMessageID != nil { outcome.providerMessageID = nil }
        cost += (outcome.detail?.utf8.count ?? 0) + (outcome.providerMessageID?.utf8.count ?? 0)
        spent = spent > Int.max - cost ? Int.max : spent + cost
    }
}
