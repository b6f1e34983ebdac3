/// The bytes one event's outcomes may carry in the fields whose size the
/// event or a provider decides: the echoed `context`, and what the provider
/// wrote (`reason`, `detail`, `provider_message_id`). Every outcome of an
/// event is built before any is published, so this bounds the memory one
/// event takes, however its providers answer.
///
/// One budget, `EventLimits.maxContextFanoutBytes` (8 MiB): `context` is
/// charged first, once per outcome — when the event is decoded (over the
/// budget the event is `rejected`) and again when its outcomes (or a page of
/// its channel's devices) are about to be built — and what is left holds
/// the providers' words, charged as each outcome is built. An outcome whose
/// words no longer fit loses its `detail` first, then its
/// `provider_message_id`; its reason (at most ``DeliveryReason/maxBytes``)
/// is always kept, so consumers still learn what happened.
public struct OutcomeBudget: Sendable {
    /// The budget, in bytes.
    public let limit: Int
    /// What the outcomes' context and the words charged so far took.
    public private(set) var spent: Int

    /// A budget of `limit` bytes for `outcomes` outcomes that each echo
    /// `context`, whose copies are charged at once.
    public init(limit: Int, context: JSONObject?, outcomes: Int) {
        self.limit = limit
        spent = Self.contextBytes(size: context?.serializedCount(excluding: []) ?? 0, outcomes: outcomes)
    }

    /// The bytes `count` copies of a context of `size` bytes take
    /// (saturating): what decoding checks against the budget.
    public static func contextBytes(size: Int, outcomes count: Int) -> Int {
        let (product, overflow) = size.multipliedReportingOverflow(by: count)
        return overflow ? Int.max : product
    }

    /// Charges the provider's words in `outcome` (its reason, detail and
    /// message id) to the budget, dropping its `detail`, then its
    /// `provider_message_id`, when the rest of the budget cannot hold them.
    public mutating func charge(_ outcome: inout Outcome) {
        let left = limit - spent
        let reason = outcome.reason?.utf8.count ?? 0
        let detail = outcome.detail?.utf8.count ?? 0
        let messageID = outcome.providerMessageID?.utf8.count ?? 0
        if reason + detail + messageID > left, outcome.detail != nil { outcome.detail = nil }
        if reason + messageID > left, outcome.providerMessageID != nil { outcome.providerMessageID = nil }
        let cost = reason + (outcome.detail?.utf8.count ?? 0) + (outcome.providerMessageID?.utf8.count ?? 0)
        spent = spent > Int.max - cost ? Int.max : spent + cost
    }
}
