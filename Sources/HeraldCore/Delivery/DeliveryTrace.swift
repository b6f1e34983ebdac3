import HeraldSystem

/// What sending one notification to one target did on the wire: each HTTP
/// request as sent and the provider's answer, with timings. It exists for the
/// debug trace of an event that asks for one (`"debug": true`,
/// docs/debug-trace.md); nothing else records requests.
///
/// Everything in it has been through ``DebugRedaction`` when recorded: it
/// holds no credential and no whole device token, and every body and header
/// value is within the trace's bounds.
public struct DeliveryTrace: Sendable, Equatable {
    /// One HTTP request and what came of it.
    public struct Exchange: Sendable, Equatable {
        public var request: Message
        /// The provider's answer; nil when none came (see ``error``).
        public var response: Message?
        /// Why no answer came (a timeout, a lost connection).
        public var error: String?
        /// From the moment the target was queued for delivery to the request being handed to the HTTP client.
        public var sentMs: Double
        /// From the moment the target was queued to the answer (or the error).
        public var answeredMs: Double?
    }

    /// A request or an answer, redacted and bounded.
    public struct Message: Sendable, Equatable {
        /// `POST` for a request; nil for an answer.
        public var method: String?
        /// The request's URL, the device token in it masked; nil for an answer.
        public var url: String?
        /// The answer's HTTP status; nil for a request.
        public var status: Int?
        /// In order as sent or received, secret values replaced.
        public var headers: [(name: String, value: String)]
        /// The body as text, at most ``DebugRedaction/maxBodyBytes`` bytes.
        public var body: String
        /// The body's size before it was cut.
        public var bodyBytes: Int
        public var bodyTruncated: Bool

        public static func == (lhs: Message, rhs: Message) -> Bool {
            lhs.method == rhs.method && lhs.url == rhs.url && lhs.status == rhs.status
                && lhs.headers.map(\.name) == rhs.headers.map(\.name)
                && lhs.headers.map(\.value) == rhs.headers.map(\.value)
                && lhs.body == rhs.body && lhs.bodyBytes == rhs.bodyBytes && lhs.bodyTruncated == rhs.bodyTruncated
        }
    }

    /// At most ``DebugRedaction/maxExchanges`` exchanges, in the order they happened.
    public var exchanges: [Exchange]
    /// Exchanges made beyond the bound and not kept.
    public var omittedExchanges: Int
}

/// Collects the ``DeliveryTrace`` of one target while it is being sent. The
/// pipeline makes one only for a target whose event asked for a trace, and
/// hands it to the provider in ``PreparedNotification/trace``; a provider
/// that finds none records nothing (the common case costs one nil check).
public final class DeliveryTraceRecorder: Sendable {
    /// When the target was queued for delivery: every timing counts from here.
    public let queuedAt: ContinuousClock.Instant
    /// The device token (or FID) to mask wherever it appears; nil for topics and conditions.
    let deviceAddress: String?
    private let state = Locked(DeliveryTrace(exchanges: [], omittedExchanges: 0))

    /// - Parameter target: the target being sent; its device token or FID is masked in every record.
    public init(target: Target, queuedAt: ContinuousClock.Instant = .now) {
        self.queuedAt = queuedAt
        deviceAddress = target.address.isDevice ? target.address.value : nil
    }

    /// Records a request as it is handed to the HTTP client; returns its index for ``answered(_:status:headers:body:)``.
    public func sent(method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]) -> Int {
        let request = DebugRedaction.request(
            method: method, url: url, headers: headers, body: body, deviceAddress: deviceAddress)
        let sentMs = milliseconds(since: queuedAt)
        return state.withLock { trace in
            guard trace.exchanges.count < DebugRedaction.maxExchanges else {
                trace.omittedExchanges += 1
                return -1
            }
            trace.exchanges.append(DeliveryTrace.Exchange(request: request, sentMs: sentMs))
            return trace.exchanges.count - 1
        }
    }

    /// Records the provider's answer to the request at `index`.
    public func answered(_ index: Int, status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        guard index >= 0 else { return }
        let response = DebugRedaction.response(
            status: status, headers: headers, body: body, deviceAddress: deviceAddress)
        let answeredMs = milliseconds(since: queuedAt)
        state.withLock { trace in
            guard trace.exchanges.indices.contains(index) else { return }
            trace.exchanges[index].response = response
            trace.exchanges[index].answeredMs = answeredMs
        }
    }

    /// Records that the request at `index` got no answer, and why.
    public func failed(_ index: Int, error: String) {
        guard index >= 0 else { return }
        let text = DebugRedaction.text(error, deviceAddress: deviceAddress)
        let answeredMs = milliseconds(since: queuedAt)
        state.withLock { trace in
            guard trace.exchanges.indices.contains(index) else { return }
            trace.exchanges[index].error = text
            trace.exchanges[index].answeredMs = answeredMs
        }
    }

    /// What was recorded so far.
    public var trace: DeliveryTrace { state.withLock { $0 } }

    private func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000
    }
}
