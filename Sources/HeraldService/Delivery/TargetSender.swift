import HeraldCore
import HeraldObservability
import HeraldPipeline

/// Sends an event's targets to their providers and records each answer in
/// the work being built: the provider of the target's app, the request it
/// prepares, the traffic rules it passes (`TrafficControl`), and a request
/// whose answer was lost sent again (`timeout_retries`) before the retry
/// policy takes over. The same for an event's own targets and for each page
/// of a channel's devices.
///
/// Its async functions' frames are held once per target in flight, so its
/// synchronous steps (preparing, recording an answer) are out of line and
/// it is a class (docs/architecture.md, "What an event in flight costs").
final class TargetSender: Sendable {
    let providers: ProviderSet
    /// Rates, throttles and provider pauses (docs/traffic.md); nil: none.
    let traffic: TrafficControl?
    let retryPolicy: RetryPolicy
    let invalidationGuard: InvalidationGuard?
    let series: PipelineSeries
    let metrics: HeraldMetrics
    let clock: @Sendable () -> Timestamp

    init(
        providers: ProviderSet, traffic: TrafficControl?, retryPolicy: RetryPolicy,
        invalidationGuard: InvalidationGuard?, series: PipelineSeries, metrics: HeraldMetrics,
        clock: @escaping @Sendable () -> Timestamp
    ) {
        self.providers = providers
        self.traffic = traffic
        self.retryPolicy = retryPolicy
        self.invalidationGuard = invalidationGuard
        self.series = series
        self.metrics = metrics
        self.clock = clock
    }

    /// Sends `sends` (concurrently) and records each answer in `work`.
    func deliver(_ sends: [EventPlan.Send], into work: inout DeliveryWork) async {
        let attempt = work.plan.attempt
        guard let first = sends.first else { return }
        guard sends.count > 1 else {
            // One target (the common case): no child task to create and keep.
            let trace = Self.recorder(for: first)
            return record(await answer(first, attempt: attempt, trace: trace), for: first, trace: trace, into: &work)
        }
        await withTaskGroup(of: (EventPlan.Send, ProviderAnswer, DeliveryTraceRecorder?).self) { group in
            // The first target is delivered by this task itself, the others
            // by child tasks meanwhile: one task fewer to create and schedule.
            for send in sends.dropFirst() {
                group.addTask { [self] in
                    let trace = Self.recorder(for: send)
                    return (send, await answer(send, attempt: attempt, trace: trace), trace)
                }
            }
            let trace = Self.recorder(for: first)
            record(await answer(first, attempt: attempt, trace: trace), for: first, trace: trace, into: &work)
            for await (send, answer, trace) in group { record(answer, for: send, trace: trace, into: &work) }
        }
    }

    @inline(never)
    private func record(
        _ answer: ProviderAnswer, for send: EventPlan.Send, trace: DeliveryTraceRecorder?,
        into work: inout DeliveryWork
    ) {
        work.record(
            answer, for: send, attempt: work.plan.attempt, policy: retryPolicy,
            invalidationGuard: invalidationGuard, at: clock(), trace: trace)
    }

    /// A recorder for a target whose event asked for a debug trace; nil (nothing allocated) for every other.
    static func recorder(for send: EventPlan.Send) -> DeliveryTraceRecorder? {
        send.traced ? DeliveryTraceRecorder(target: send.target) : nil
    }

    /// What came of sending `send` as attempt `attempt`: its provider's
    /// answer, or why it was not sent (no provider, refused by `prepare`,
    /// dropped or paused by the traffic rules).
    func answer(_ send: EventPlan.Send, attempt: Int, trace: DeliveryTraceRecorder?) async -> ProviderAnswer {
        let provider: AnyPushProvider
        let notification: PreparedNotification<AnyPushProvider.Request>
        switch prepare(send, trace: trace) {
        case .ready(let found, let prepared): (provider, notification) = (found, prepared)
        case .refused(let answer): return answer
        }
        if let traffic, let answer = await traffic.admit(send) { return answer }
        let answer = await self.send(notification, through: provider, of: send, attempt: attempt)
        traffic?.observe(answer, of: send)
        return answer
    }

    /// A target's provider and the request it prepared, or the answer of a target that cannot be sent.
    private enum Prepared {
        case ready(AnyPushProvider, PreparedNotification<AnyPushProvider.Request>)
        case refused(ProviderAnswer)
    }

    /// `send`'s provider and its prepared request: none for the target's
    /// app, or refused by `prepare`, the answer that says so.
    @inline(never)
    private func prepare(_ send: EventPlan.Send, trace: DeliveryTraceRecorder?) -> Prepared {
        let provider: AnyPushProvider
        switch providers.provider(app: send.app, for: send.target) {
        case .success(let found): provider = found
        case .failure(let unavailable): return .refused(.unavailable(unavailable.reason))
        }
        do {
            var notification = try provider.prepare(send.event, for: send.target)
            notification.trace = trace
            return .ready(provider, notification)
        } catch {
            return .refused(.rejected(error))
        }
    }

    /// Sends a prepared notification: the answer, after sending again (at most
    /// `timeout_retries` times) a request whose answer was lost.
    private func send(
        _ notification: PreparedNotification<AnyPushProvider.Request>, through provider: AnyPushProvider,
        of send: EventPlan.Send, attempt: Int
    ) async -> ProviderAnswer {
        let providerSeries = series.provider(send.target.provider)
        providerSeries.inflightRequests.increment()
        defer { providerSeries.inflightRequests.decrement() }
        // A request whose answer was lost is sent again as it was (same apns-id) before the retry policy
        // takes over; how often is looked up only once an answer is lost.
        var resendsLeft: Int?
        while true {
            do {
                let result = try await provider.send(notification, attempt: attempt)
                if let latency = result.latency { providerSeries.requestDuration.observe(latency) }
                return .result(result)
            } catch {
                if let latency = error.latency { providerSeries.requestDuration.observe(latency) }
                guard resends(after: error, of: send, left: &resendsLeft) else { return .failure(error) }
            }
        }
    }

    /// Whether a request that failed with `error` is sent again: its answer
    /// was lost and `left` (looked up on the first loss) allows one more; counted.
    @inline(never)
    private func resends(after error: DeliveryFailure, of send: EventPlan.Send, left: inout Int?) -> Bool {
        guard error.answerLost else { return false }
        let resends = left ?? providers.timeoutRetries(app: send.app)
        guard resends > 0 else { return false }
        left = resends - 1
        metrics.timeoutRetries.labels(send.target.provider.rawValue, send.app).increment()
        return true
    }
}
