import HeraldConfig
import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldSystem
import Synchronization

/// What every send passes on its way to a provider, per instance
/// (docs/traffic.md): its route's `rate`, its app's provider throttle
/// (`max_per_second`, `max_per_minute`), and the pauses providers asked for —
/// FCM's project quota pauses an app's FCM sends, a device's rate (FCM's
/// per-device quota, APNs `TooManyRequests`) that one token's.
///
/// Waiting for a rate happens inside the event's task: the event stays
/// unacknowledged and, at `amqp.prefetch` such events, the broker sends no
/// more. A paused send is not made: it is retried through the delay queues
/// after the pause (a `retrying` outcome saying why).
final class TrafficControl: Sendable {
    private struct RouteRate: Sendable {
        let bucket: TokenBucket
        let onExceed: RateSettings.OnExceed
        let spelled: String
    }

    private enum PauseKey: Hashable {
        case app(ProviderSet.Key)
        case token(ProviderSet.Key, String)
    }

    private let routes: [String: RouteRate]
    private let throttles: [ProviderSet.Key: TokenBucket]
    private let pauses = Locked<[PauseKey: (until: ContinuousClock.Instant, reason: String)]>([:])
    /// Set once a provider asked for a pause: until then a send looks at no lock.
    private let everPaused = Atomic<Bool>(false)
    /// A token's pause when the provider gave no `Retry-After`: the first retry delay.
    private let tokenBackOff: Duration
    private let metrics: HeraldMetrics

    /// An app's pause when the quota answer gave no `Retry-After` (Google asks for at least a minute).
    static let quotaPause = Duration.seconds(60)

    init(configuration: Configuration, metrics: HeraldMetrics) {
        var routes: [String: RouteRate] = [:]
        for route in configuration.routes {
            guard let rate = route.rate, let perSecond = rate.ratePerSecond else { continue }
            routes[route.name] = RouteRate(
                bucket: TokenBucket(perSecond: perSecond, burst: rate.burst), onExceed: rate.onExceed,
                spelled: rate.spelled)
        }
        var throttles: [ProviderSet.Key: TokenBucket] = [:]
        for (app, settings) in configuration.apps {
            for (provider, section) in settings.sections {
                guard let perSecond = section.sendsPerSecond else { continue }
                throttles[ProviderSet.Key(app: app, provider: provider)] = TokenBucket(perSecond: perSecond, burst: 1)
            }
        }
        self.routes = routes
        self.throttles = throttles
        tokenBackOff = configuration.retry.delays.first?.duration ?? .seconds(5)
        self.metrics = metrics
    }

    /// Before `send` goes to its provider: waits for its turn under its
    /// route's rate and its app's throttle, and returns nil to go on — or the
    /// answer to report instead of sending (dropped over a rate, or retried
    /// later because its app or token is paused).
    func admit(_ send: EventPlan.Send) async -> ProviderAnswer? {
        let key = ProviderSet.Key(app: send.app, provider: send.target.provider)
        if everPaused.load(ordering: .acquiring), let paused = paused(key, token: send.target.address.value) {
            metrics.pausedSends.labels(key.provider.rawValue, key.app).increment()
            return .failure(paused)
        }
        if !routes.isEmpty, let rule = send.rule, let rate = routes[rule] {
            switch rate.onExceed {
            case .drop:
                guard rate.bucket.takeIfAvailable() else {
                    return .dropped("over the rate of route '\(rule)' (\(rate.spelled), on_exceed: drop)")
                }
            case .delay:
                waited(await rate.bucket.acquire(), limit: "route:\(rule)")
            }
        }
        if !throttles.isEmpty, let throttle = throttles[key] {
            waited(await throttle.acquire(), limit: "\(key.provider.rawValue):\(key.app)")
        }
        return nil
    }

    /// After `send` was answered: a quota answer pauses its app's sends to
    /// that provider (FCM's project quota) or its token's (a device's rate),
    /// as the provider's answer says (`DeliveryFailure.pause`).
    func observe(_ answer: ProviderAnswer, of send: EventPlan.Send) {
        guard case .failure(let failure) = answer, let pause = failure.pause else { return }
        let key = ProviderSet.Key(app: send.app, provider: send.target.provider)
        switch pause.scope {
        case .app:
            self.pause(
                .app(key), for: failure.retryAfter ?? Self.quotaPause, key: key, scope: pause.scope.rawValue,
                reason: "\(pause.cause): app '\(key.app)' pauses its \(pause.service) sends")
        case .token:
            self.pause(
                .token(key, send.target.address.value), for: failure.retryAfter ?? tokenBackOff, key: key,
                scope: pause.scope.rawValue, reason: "\(pause.cause): its sends pause")
        }
    }

    /// Pauses `pauseKey` for `duration` from now, unless it is paused longer already.
    private func pause(
        _ pauseKey: PauseKey, for duration: Duration, key: ProviderSet.Key, scope: String, reason: String
    ) {
        let now = ContinuousClock.now
        let until = now + duration
        let begun = pauses.withLock { pauses -> Bool in
            // Tokens' pauses come and go: the ended ones are swept when many have gathered.
            if pauses.count > 10_000 { pauses = pauses.filter { $0.value.until > now } }
            let current = pauses[pauseKey]
            if let current, current.until >= until { return false }
            pauses[pauseKey] = (until, reason)
            return current.map { $0.until <= now } ?? true
        }
        everPaused.store(true, ordering: .releasing)
        if begun { metrics.providerPauses.labels(key.provider.rawValue, key.app, scope).observe(duration) }
    }

    /// The failure to report for a send whose app or token is paused now.
    private func paused(_ key: ProviderSet.Key, token: String) -> DeliveryFailure? {
        let now = ContinuousClock.now
        return pauses.withLock { pauses -> DeliveryFailure? in
            guard !pauses.isEmpty else { return nil }
            // The app's pause first, then the token's (no array of the two keys built per send).
            return Self.failure(pauses[.app(key)], now: now) ?? Self.failure(pauses[.token(key, token)], now: now)
        }
    }

    /// The failure of a send `pause` holds back at `now`; nil when there is none or it is over.
    private static func failure(
        _ pause: (until: ContinuousClock.Instant, reason: String)?, now: ContinuousClock.Instant
    ) -> DeliveryFailure? {
        guard let pause, pause.until > now else { return nil }
        let left = pause.until - now
        return DeliveryFailure(reason: "\(pause.reason) for \(Self.spelled(left)) more; not sent", retryAfter: left)
    }

    private func waited(_ delay: Duration, limit: String) {
        if delay > .zero { metrics.throttleWait.labels(limit).observe(delay) }
    }

    /// `42s`, `1.5s`: a pause's remaining time for a reason (tenths below 10 s, rounded up).
    static func spelled(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10 + (attoseconds + 99_999_999_999_999_999) / 100_000_000_000_000_000
        return tenths >= 100 || tenths % 10 == 0 ? "\((tenths + 9) / 10)s" : "\(tenths / 10).\(tenths % 10)s"
    }
}
