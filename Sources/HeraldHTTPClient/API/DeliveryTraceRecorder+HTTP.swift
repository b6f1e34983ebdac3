import HeraldCore

extension DeliveryTraceRecorder {
    /// Records `request` as it is handed to the client (redacted as it is recorded).
    public func sent(_ request: HTTPClientRequest) -> Int {
        sent(method: request.method, url: request.url, headers: request.headers, body: request.body)
    }

    /// Records `response` as the answer to the request at `index`.
    public func answered(_ index: Int, _ response: HTTPClientResponse) {
        answered(index, status: response.status, headers: response.headers, body: response.body)
    }
}
