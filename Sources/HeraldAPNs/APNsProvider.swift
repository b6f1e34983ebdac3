import HeraldCore
import HeraldHTTPClient

/// Delivers to Apple Push Notification service over HTTP/2: builds and checks
/// the request, adds the provider token, and maps Apple's answer to a
/// `DeliveryResult` or a thrown `DeliveryFailure`.
///
/// - Important: with token auth a 403 ExpiredProviderToken /
///   InvalidProviderToken / MissingProviderToken evicts the token, and the
///   request is retried once with a new one; a second refusal is `failed`.
public final class APNsProvider: PushProvider {
    public let provider = Provider.apns
    public let configuration: APNsProviderConfiguration
    private let client: HTTPClient
    private let clock: @Sendable () -> Timestamp
    private let logger: Logger

    /// - Parameters:
    ///   - client: a running client made with `configuration.httpClientConfiguration`
    ///     (certificate auth needs its client certificate).
    ///   - clock: the wall clock for `apns-expiration` from a `ttl`.
    public init(
        configuration: APNsProviderConfiguration, client: HTTPClient, logger: Logger,
        clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.configuration = configuration
        self.client = client
        self.logger = logger.child("apns")
        self.clock = clock
    }

    public func prepare(_ event: Event, for target: Target) throws(DeliveryRejection)
        -> PreparedNotification<APNsRequest>
    {
        let request = try APNsRequest(
            event: event, target: target, bundleID: configuration.bundleID, now: clock(),
            apnsID: APNsID.random(), allowedTopics: configuration.allowedTopics)
        return PreparedNotification(event: event, target: target, request: request)
    }

    public func send(_ notification: PreparedNotification<APNsRequest>, attempt: Int) async throws(DeliveryFailure)
        -> DeliveryResult
    {
        // Every synchronous step is out of line: this frame is held for as
        // long as the request is in flight, once per target.
        var bearer = try providerToken()
        var refreshed = false
        while true {
            let response: HTTPClientResponse
            let latency: Duration
            switch try await send(notification.request, bearer: bearer, trace: notification.trace) {
            case .response(let answered, let took):
                (response, latency) = (answered, took)
            case .refused(let result):
                return result
            }
            switch verdict(response, latency: latency, of: notification, attempt: attempt) {
            case .result(let result):
                return result
            case .failure(let failure):
                throw failure
            case .refreshProviderToken(let reason):
                switch try renewal(after: reason, of: bearer, refreshed: refreshed, response, latency) {
                case .renewed(let next):
                    refreshed = true
                    bearer = next
                case .refused(let result):
                    return result
                }
            }
        }
    }

    /// Apple's answer classified, logged at debug level.
    @inline(never)
    private func verdict(
        _ response: HTTPClientResponse, latency: Duration, of notification: PreparedNotification<APNsRequest>,
        attempt: Int
    ) -> APNsResponseVerdict {
        let verdict = APNsResponseVerdict(
            status: response.status, body: response.body, apnsID: response.header(APNsHeaderName.id),
            retryAfter: response.header("retry-after").flatMap { RetryAfter.parse($0, now: Timestamp.now()) },
            latency: latency)
        logger.debug(
            "apns answered",
            [
                "event_id": .string(notification.event.id), "token": .token(notification.request.deviceToken),
                "status": .int(response.status),
                "attempt": .int(attempt),
            ])
        return verdict
    }

    /// After a refused provider token: a new one to send again with, or, once
    /// already renewed (or without token auth), the `failed` result.
    private enum Renewal {
        case renewed(String?)
        case refused(DeliveryResult)
    }

    @inline(never)
    private func renewal(
        after reason: APNsReason, of bearer: String?, refreshed: Bool, _ response: HTTPClientResponse,
        _ latency: Duration
    ) throws(DeliveryFailure) -> Renewal {
        guard !refreshed, case .token(let manager) = configuration.authentication, let current = bearer,
            let next = try renewedToken(manager, rejecting: current)
        else {
            return .refused(
                DeliveryResult(
                    .failed, reason: reason.rawValue, providerStatus: response.status,
                    providerMessageID: response.header(APNsHeaderName.id), latency: latency))
        }
        logger.notice(
            "apns refused the provider token; retrying with a new one", ["reason": .string(reason.rawValue)])
        return .renewed(next)
    }

    private func providerToken() throws(DeliveryFailure) -> String? {
        guard case .token(let manager) = configuration.authentication else { return nil }
        do { return try manager.token() } catch {
            throw DeliveryFailure(reason: "cannot sign the provider token: \(error)")
        }
    }

    private func renewedToken(_ manager: ProviderTokenManager, rejecting token: String) throws(DeliveryFailure)
        -> String?
    {
        do { return try manager.rejected(token) } catch {
            throw DeliveryFailure(reason: "cannot sign the provider token: \(error)")
        }
    }

    /// What sending produced: Apple's answer, or a transport failure that no
    /// retry can fix (an untrusted server certificate, unusable TLS material).
    private enum Sent {
        case response(HTTPClientResponse, Duration)
        case refused(DeliveryResult)
    }

    /// Sends one request. Transport failures worth retrying (connection lost,
    /// timeout, GOAWAY, cancellation) are thrown as `DeliveryFailure`
    /// (``DeliveryResult/unanswered(_:latency:naming:)`` decides). With a
    /// `trace`, the request as sent and its answer are recorded there.
    private func send(_ request: APNsRequest, bearer: String?, trace: DeliveryTraceRecorder?)
        async throws(DeliveryFailure) -> Sent
    {
        let (http, traced) = httpRequest(request, bearer: bearer, trace: trace)
        let start = ContinuousClock.now
        do {
            let response = try await client.send(http)
            let latency = ContinuousClock.now - start
            if let trace, let traced { trace.answered(traced, response) }
            return .response(response, latency)
        } catch {
            return try unanswered(error, since: start, traced: traced, trace: trace)
        }
    }

    /// The HTTP request of `request` with the provider token, and its record when the target is traced.
    @inline(never)
    private func httpRequest(_ request: APNsRequest, bearer: String?, trace: DeliveryTraceRecorder?)
        -> (HTTPClientRequest, Int?)
    {
        var headers = request.headers.fields
        if let bearer { headers.insert((name: APNsHeaderName.authorization, value: "bearer " + bearer), at: 0) }
        let http = HTTPClientRequest(
            method: "POST", url: configuration.baseURL + request.path, headers: headers, body: request.body,
            timeout: configuration.requestTimeout)
        return (http, trace?.sent(http))
    }

    @inline(never)
    private func unanswered(
        _ error: any Error, since start: ContinuousClock.Instant, traced: Int?, trace: DeliveryTraceRecorder?
    ) throws(DeliveryFailure) -> Sent {
        let latency = ContinuousClock.now - start
        if let trace, let traced { trace.failed(traced, error: TransportNaming.kind.reason(error)) }
        let refused = try DeliveryResult.unanswered(error, latency: latency, naming: .kind)
        if let error = error as? HTTPClientError {
            logger.error(
                "apns request cannot be sent",
                ["kind": .string(error.kind.rawValue), "host": .string(error.host)])
        }
        return .refused(refused)
    }
}
