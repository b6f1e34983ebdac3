import HeraldCore
import HeraldHTTPClient

extension FCMProvider {
    /// Sends one message. A 401 about the access token evicts it and sends
    /// once more with a fresh one; a second 401 is `failed`.
    public func send(_ notification: PreparedNotification<[UInt8]>, attempt: Int) async throws(DeliveryFailure)
        -> DeliveryResult
    {
        try await send(
            notification.request, to: notification.target, attempt: attempt, afterRefresh: false,
            trace: notification.trace)
    }

    /// The logger for lines about one send (built only when a line is written).
    private func log(_ target: Target, _ attempt: Int) -> Logger {
        // Tokens and FIDs are logged masked (LogValue.token), topics and conditions as they are.
        let address = target.address
        return logger.with([
            "target": address.isDevice ? .token(address.value) : .string(address.value), "attempt": .int(attempt),
        ])
    }

    /// The async steps of one send; every synchronous step is a function
    /// kept out of line, so this frame — held for as long as the request is
    /// in flight, once per target — keeps only what crosses an `await`.
    private func send(
        _ body: [UInt8], to target: Target, attempt: Int, afterRefresh: Bool, trace: DeliveryTraceRecorder?
    ) async throws(DeliveryFailure) -> DeliveryResult {
        let token: AccessToken
        do {
            token = try await tokens.token()
        } catch {
            return try tokenUnavailable(error, target: target, attempt: attempt)
        }
        let (request, traced) = sentRequest(body, token: token, trace: trace)
        let started = ContinuousClock.now
        let response: HTTPClientResponse
        do {
            response = try await http.send(request)
        } catch {
            return try unanswered(error, since: started, traced: traced, trace: trace)
        }
        switch try answered(response, since: started, to: target, attempt: attempt, traced: traced, trace: trace) {
        case .result(let result):
            return result
        case .unauthenticated(let reason, let latency):
            await tokens.evict(token)
            guard !afterRefresh else {
                return refusedAfterRefresh(reason, status: response.status, latency: latency, target, attempt)
            }
            log(target, attempt).notice("FCM access token refused; refreshing once", ["reason": .string(reason)])
            return try await send(body, to: target, attempt: attempt, afterRefresh: true, trace: trace)
        }
    }

    /// What came of an answered request: a result, or a 401 about the access token.
    private enum Answered {
        case result(DeliveryResult)
        case unauthenticated(reason: String, latency: Duration)
    }

    @inline(never)
    private func tokenUnavailable(_ error: FCMAuthError, target: Target, attempt: Int) throws(DeliveryFailure)
        -> DeliveryResult
    {
        log(target, attempt).error(
            "FCM access token unavailable", ["reason": .string(error.reason), "detail": .string(error.message)])
        let reason = "OAuth \(error.reason): \(error.message)"
        if error.isRetryable { throw DeliveryFailure(reason: reason, providerStatus: error.status) }
        return DeliveryResult(.failed, reason: reason, providerStatus: error.status)
    }

    /// The request, and its record when the target is traced (redacted as it is recorded).
    @inline(never)
    private func sentRequest(_ body: [UInt8], token: AccessToken, trace: DeliveryTraceRecorder?)
        -> (HTTPClientRequest, Int?)
    {
        let request = sendRequest(body, token: token)
        return (request, trace?.sent(request))
    }

    @inline(never)
    private func unanswered(
        _ error: any Error, since started: ContinuousClock.Instant, traced: Int?,
        trace: DeliveryTraceRecorder?
    ) throws(DeliveryFailure) -> DeliveryResult {
        if let trace, let traced { trace.failed(traced, error: "\(error)") }
        return try DeliveryResult.unanswered(error, latency: ContinuousClock.now - started)
    }

    @inline(never)
    private func answered(
        _ response: HTTPClientResponse, since started: ContinuousClock.Instant, to target: Target, attempt: Int,
        traced: Int?, trace: DeliveryTraceRecorder?
    ) throws(DeliveryFailure) -> Answered {
        let latency = ContinuousClock.now - started
        if let trace, let traced { trace.answered(traced, response) }
        let answer = FCMAnswer.classify(
            status: response.status, retryAfterHeader: response.header("retry-after"), body: response.body,
            target: target.address,
            now: now())
        switch answer {
        case .delivered(let name):
            if logger.isEnabled(.debug) { log(target, attempt).debug("FCM message accepted") }
            return .result(DeliveryResult(.delivered, providerStatus: 200, providerMessageID: name, latency: latency))
        case .definitive(var result):
            if result.reason == FCMAnswer.thirdPartyAuthReason {
                log(target, attempt).error(
                    "FCM refused: APNs credentials in Firebase rejected", ["status": .int(response.status)])
            }
            result.latency = latency
            return .result(result)
        case .transient(var failure):
            failure.latency = latency
            throw failure
        case .unauthenticated(let reason):
            return .unauthenticated(reason: reason, latency: latency)
        }
    }

    @inline(never)
    private func refusedAfterRefresh(
        _ reason: String, status: Int, latency: Duration, _ target: Target, _ attempt: Int
    ) -> DeliveryResult {
        log(target, attempt).error("FCM refused a freshly refreshed access token", ["reason": .string(reason)])
        return DeliveryResult(
            .failed, reason: "\(reason): credentials rejected after an access-token refresh",
            providerStatus: status, latency: latency)
    }

    /// A `messages:send` request carrying `body`, authorized by `token`.
    func sendRequest(_ body: [UInt8], token: AccessToken) -> HTTPClientRequest {
        HTTPClientRequest(
            method: "POST", url: sendURL,
            headers: [("authorization", "Bearer " + token.value), ("content-type", "application/json; charset=utf-8")],
            body: body, timeout: timeout)
    }
}
