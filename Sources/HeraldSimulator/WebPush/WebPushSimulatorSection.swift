extension SimulatorSettings {
    /// The `webpush:` section: the simulated push service (`POST /push/<id>`)
    /// always runs; this says how many subscriptions to issue at start.
    ///
    /// ```yaml
    /// webpush:
    ///   subscriptions: 2                       # issued at start, printed one JSON object per line
    /// ```
    public struct WebPush: Sendable, Equatable, Decodable {
        /// Subscriptions issued when the server starts, printed one JSON
        /// object per line (`SimulatedWebPushSubscription.jsonValue()`), so a
        /// script has somewhere to send without calling the admin API.
        public var subscriptions: Int

        public init(subscriptions: Int = 0) {
            self.subscriptions = subscriptions
        }

        enum CodingKeys: String, CodingKey { case subscriptions }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            subscriptions = try c.decodeIfPresent(Int.self, forKey: .subscriptions) ?? 0
            guard subscriptions >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .subscriptions, in: c,
                    debugDescription: "expected a number of subscriptions, 0 or more, found \(subscriptions)")
            }
        }
    }
}
