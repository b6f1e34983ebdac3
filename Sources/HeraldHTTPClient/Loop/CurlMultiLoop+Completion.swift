import CCurl
import CHeraldShim
import HeraldCore
import HeraldSystem

/// Finished transfers: building the response or error, resuming the waiters, deadlines.
extension CurlMultiLoop {
    func complete(_ handle: UnsafeMutableRawPointer, _ code: CURLcode) {
        var privateData: UnsafeMutableRawPointer?
        _ = herald_curl_easy_getinfo_ptr(handle, CURLINFO_PRIVATE, &privateData)
        let id = UInt64(UInt(bitPattern: privateData))
        guard let transfer = active.removeValue(forKey: id) else {
            _ = curl_multi_remove_handle(multi.handle, handle)
            return
        }
        multi.remove(transfer.easy)
        waiting.release(transfer.slot)
        let overHTTP2 = transfer.easy.info(CURLINFO_HTTP_VERSION) == CURL_HTTP_VERSION_2_0
        if code == CURLE_OK, !overHTTP2, !configuration.acceptsHTTP1 {
            // The pre-request check should have stopped it; without `acceptsHTTP1` an HTTP/1.x answer is never a success.
            deliver(
                transfer.pending,
                .failure(
                    HTTPClientError(
                        kind: .http2Unavailable, host: transfer.host,
                        message: "the server answered over HTTP/1.x, not HTTP/2, which APNs and FCM require")))
        } else if code == CURLE_OK {
            let response = HTTPClientResponse(
                status: transfer.easy.info(CURLINFO_RESPONSE_CODE), headers: transfer.responseHeaders,
                body: transfer.responseBody, httpVersion: overHTTP2 ? 2 : 1)
            deliver(transfer.pending, .success(response))
        } else {
            let failure = error(for: code, transfer: transfer)
            logger.debug(
                "request failed",
                [
                    "host": .string(failure.host), "kind": .string(failure.kind.rawValue),
                    "curl_code": .int(failure.curlCode ?? 0), "retryable": .bool(failure.isRetryable),
                ])
            deliver(transfer.pending, .failure(failure))
        }
        recycle(transfer.easy)
    }

    private func deliver(_ pending: PendingRequest, _ result: Result<HTTPClientResponse, HTTPClientError>) {
        completions.add(pending, result)
    }

    func error(for code: CURLcode, transfer: Transfer) -> HTTPClientError {
        if let refusal = transfer.http2Refusal { return refusal }
        // Every address the host resolved to was refused or failed: the refusal is the cause to report.
        if let refusal = transfer.egressRefusal, code == CURLE_COULDNT_CONNECT { return refusal }
        if transfer.headerLimitExceeded {
            return .responseHeadersTooLarge(
                host: transfer.host, limit: configuration.maxResponseHeaderBytes, curlCode: Int(code.rawValue))
        }
        if transfer.bodyLimitExceeded || code == CURLE_FILESIZE_EXCEEDED {
            return .responseBodyTooLarge(
                host: transfer.host, limit: configuration.maxResponseBodyBytes, curlCode: Int(code.rawValue))
        }
        if code == CURLE_OPERATION_TIMEDOUT, CurlErrorClassifier.neverConnected(transfer) {
            return queuedWithoutConnection(transfer)
        }
        let text = transfer.easy.errorText
        return HTTPClientError(
            kind: CurlErrorClassifier.kind(of: code), host: transfer.host, curlCode: Int(code.rawValue),
            message: text.isEmpty ? CurlErrorClassifier.text(of: code) : text,
            requestWritten: transfer.easy.reachedTransfer)
    }

    /// What a transfer that timed out in libcurl's queue, before any
    /// connection, fails with: how long it waited since the loop took it.
    private func queuedWithoutConnection(_ transfer: Transfer) -> HTTPClientError {
        let now = MonotonicClock.now()
        return .queuedWithoutConnection(
            host: transfer.host, waitedNanoseconds: now > transfer.takenAt ? now - transfer.takenAt : 0,
            timeout: .nanoseconds(Int64(clamping: transfer.deadline - min(transfer.deadline, transfer.takenAt))))
    }

    /// Fails requests past their deadline that libcurl has not (e.g. still
    /// queued for a stream), and those still waiting in the loop's own queue.
    func expireOverdue() {
        let now = MonotonicClock.now()
        guard now >= nextDeadlineScan, !active.isEmpty || !waiting.isEmpty else { return }
        nextDeadlineScan = now + Self.deadlineScanInterval
        for (submission, error) in waiting.removeOverdue(now: now, configuration: configuration) {
            submission.pending.finish(.failure(error))
        }
        let overdue = active.values.filter { $0.deadline < now }
        for transfer in overdue {
            active.removeValue(forKey: transfer.id)
            multi.remove(transfer.easy)
            waiting.release(transfer.slot)
            let failure =
                CurlErrorClassifier.neverConnected(transfer)
                ? queuedWithoutConnection(transfer)
                : HTTPClientError(
                    kind: .timeout, host: transfer.host, message: "no response before the request timeout",
                    requestWritten: transfer.easy.reachedTransfer)
            transfer.pending.finish(.failure(failure))
            recycle(transfer.easy)
        }
    }
}
