import CCurl
import CHeraldShim
import HeraldCore

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
        if code == CURLE_OK {
            let version = transfer.easy.info(CURLINFO_HTTP_VERSION)
            let response = HTTPClientResponse(
                status: transfer.easy.info(CURLINFO_RESPONSE_CODE), headers: transfer.responseHeaders,
                body: transfer.responseBody, httpVersion: version == CURL_HTTP_VERSION_2_0 ? 2 : 1)
            deliver(transfer.pending, .success(response))
        } else {
            let failure = error(for: code, transfer: transfer)
            logger.debug("request failed", [
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
        if transfer.bodyLimitExceeded {
            return HTTPClientError(
                kind: .responseTooLarge, host: transfer.host, curlCode: Int(code.rawValue),
                message: "response body exceeds \(configuration.maxResponseBodyBytes) bytes")
        }
        let text = transfer.easy.errorText
        return HTTPClientError(
            kind: CurlErrorClassifier.kind(of: code), host: transfer.host, curlCode: Int(code.rawValue),
            message: text.isEmpty ? CurlErrorClassifier.text(of: code) : text)
    }

    /// Fails requests past their deadline that libcurl has not (e.g. still queued for a stream).
    func expireOverdue() {
        let now = LoopClock.now()
        guard now >= nextDeadlineScan, !active.isEmpty else { return }
        nextDeadlineScan = now + Self.deadlineScanInterval
        let overdue = active.values.filter { $0.deadline < now }
        for transfer in overdue {
            active.removeValue(forKey: transfer.id)
            multi.remove(transfer.easy)
            transfer.pending.finish(.failure(HTTPClientError(
                kind: .timeout, host: transfer.host, message: "no response before the request timeout")))
            recycle(transfer.easy)
        }
    }
}
