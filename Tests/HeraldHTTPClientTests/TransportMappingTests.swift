import HeraldCore
import HeraldHTTPClient
import Testing

/// The one mapping from a transport error to a target's answer
/// (`DeliveryResult.unanswered`): every kind, its outcome and its reason, in both namings.
@Suite struct TransportMappingTests {
    /// What the mapping made of an error: a `failed` result or a thrown (retried) failure.
    private enum Mapped: Equatable {
        case failed(reason: String?, detail: String?)
        case retried(reason: String, detail: String?, answerLost: Bool)
    }

    private func map(_ error: any Error, naming: TransportNaming) -> Mapped {
        do {
            let result = try DeliveryResult.unanswered(error, latency: .milliseconds(3), naming: naming)
            #expect(result.status == .failed)
            #expect(result.latency == .milliseconds(3))
            return .failed(reason: result.reason, detail: result.detail)
        } catch {
            #expect(error.latency == .milliseconds(3))
            return .retried(reason: error.reason, detail: error.detail, answerLost: error.answerLost)
        }
    }

    @Test(arguments: [TransportNaming.kind, .transportKind])
    func everyKindHasItsOutcomeAndReason(naming: TransportNaming) {
        let prefix = naming == .kind ? "" : "transport "
        let retried: [HTTPClientError.Kind] = [
            .connectFailed, .connectionLost, .timeout, .tlsHandshakeFailed, .shutdown, .originQueueFull, .cancelled,
        ]
        let failed: [HTTPClientError.Kind] = [
            .certificateRejected, .tlsConfiguration, .responseTooLarge, .http2Unavailable, .invalidRequest, .other,
        ]
        for kind in retried {
            let error = HTTPClientError(kind: kind, host: "push.example:443", message: "it went")
            let reason = "\(prefix)\(kind.rawValue): it went"
            #expect(map(error, naming: naming) == .retried(reason: reason, detail: nil, answerLost: false), "\(kind)")
        }
        for kind in failed {
            let error = HTTPClientError(kind: kind, host: "push.example:443", message: "it went", requestWritten: true)
            let reason = "\(prefix)\(kind.rawValue): it went"
            #expect(map(error, naming: naming) == .failed(reason: reason, detail: nil), "\(kind)")
        }
        #expect(Set(retried + failed + [.egressRefused]).count == 14, "every kind is listed once")
    }

    @Test(arguments: [TransportNaming.kind, .transportKind])
    func aWrittenRequestWithoutAnAnswerMayHaveBeenAccepted(naming: TransportNaming) {
        let prefix = naming == .kind ? "" : "transport "
        let lost = HTTPClientError(kind: .connectionLost, host: "h:443", message: "reset", requestWritten: true)
        #expect(
            map(lost, naming: naming)
                == .retried(
                    reason: "no answer before the connection was lost; the provider may have accepted it",
                    detail: "\(prefix)connectionLost: reset", answerLost: true))
        let timedOut = HTTPClientError(kind: .timeout, host: "h:443", message: "10s", requestWritten: true)
        #expect(
            map(timedOut, naming: naming)
                == .retried(
                    reason: "no answer within the timeout; the provider may have accepted it",
                    detail: "\(prefix)timeout: 10s", answerLost: true))
    }

    @Test(arguments: [TransportNaming.kind, .transportKind])
    func anEgressRefusalAndAForeignErrorHaveTheirOwnReasons(naming: TransportNaming) {
        let refused = HTTPClientError.egressRefused(host: "h:443", EgressRefusal(rule: "not a public address"))
        #expect(map(refused, naming: naming) == .failed(reason: "EndpointNotAllowed", detail: "not a public address"))
        struct Foreign: Error, CustomStringConvertible { var description: String { "odd" } }
        #expect(
            map(Foreign(), naming: naming)
                == .retried(
                    reason: naming == .kind ? "odd" : "transport: odd", detail: nil, answerLost: false))
    }
}
