import HeraldCore

/// Recording refusals: what the client was answered, and why, next to what it sent.
extension Simulator {
    /// Records `answer` to `request` unless it is a success (2xx: APNs and
    /// FCM answer 200, a push service 201); a nil answer is a stream left hanging.
    func recordRefusal(
        of request: SimulatedRequest, by service: any SimulatorService, answer: SimulatedAnswer?,
        fault: InjectedFaultKind?
    ) {
        switch answer {
        case .respond(let status, _, let body, _)?, .respondThenGoAway(let status, _, let body, _)?:
            guard !Self.isSuccess(status) else { return }
            recordRefusal(
                of: request, by: service, status: status, body: body, reason: service.reason(ofErrorBody: body),
                fault: fault)
        case .reset?, nil:
            recordRefusal(of: request, by: service, status: nil, body: [], reason: nil, fault: fault)
        }
    }

    /// Records one refusal; `service` is nil when no service serves the path.
    func recordRefusal(
        of request: SimulatedRequest, by service: (any SimulatorService)?, status: Int?, body: [UInt8], reason: String?,
        fault: InjectedFaultKind?
    ) {
        recorder.record(
            RecordedRefusal(
                provider: service?.name, method: request.method, path: request.path,
                addressee: service?.addressee(of: request),
                headers: service?.recordedHeaders(of: request) ?? request.apnsHeaders,
                requestBody: Self.json(request.body), status: status, reason: reason,
                answer: Self.json(body), fault: fault, receivedAt: request.receivedAt))
    }

    /// Whether `status` accepts the request (2xx).
    static func isSuccess(_ status: Int) -> Bool { (200..<300).contains(status) }

    /// `bytes` parsed as JSON, or nil when empty or not JSON (a form body, a plain-text answer).
    private static func json(_ bytes: [UInt8]) -> JSONValue? {
        guard let first = bytes.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        return try? JSONValue.parse(bytes)
    }
}
