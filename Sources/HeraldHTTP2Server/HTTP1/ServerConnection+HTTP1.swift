import HeraldSystem

/// HTTP/1.1 on a connection: requests parsed one at a time, handed to the
/// same `HTTP2Handler` as HTTP/2 streams (`httpVersion == .http1_1`, the
/// request's number on the connection as its `streamID`), answered in order.
extension ServerConnection {
    func receiveHTTP1(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        guard let http1 else { return .open }
        http1.parser.append(bytes)
        processHTTP1Input()
        armHTTP1HeadDeadline()
        return .open
    }

    /// Takes buffered requests while no answer is outstanding: sends
    /// `100 Continue` when a client waits for it, hands a complete request to
    /// the handler, or answers a refused one and closes.
    func processHTTP1Input() {
        guard let http1 else { return }
        while http1.isReading {
            let event: HTTP1RequestParser.Event?
            do {
                event = try http1.parser.next()
            } catch {
                refuseHTTP1(error)
                return
            }
            switch event {
            case nil:
                return
            case .head(let head):
                headerDeadline = nil
                if head.expectsContinue, !http1.parser.hasBufferedBody {
                    output.bytes.append(contentsOf: HTTP1ResponseWriter.continueLine)
                }
            case .request(let head, let body):
                headerDeadline = nil
                dispatchHTTP1(head, body: body)
            }
        }
    }

    private func dispatchHTTP1(_ head: HTTP1RequestHead, body: [UInt8]) {
        guard let http1 else { return }
        requestCount += 1
        http1.lastRequestID += 1
        let requestID = http1.lastRequestID
        if let limit = loop.configuration.goAwayAfterStreams, requestCount >= limit { http1.closeAfterAnswer = true }
        http1.state = .awaiting(
            HTTP1Exchange.Pending(
                id: requestID, headOnly: head.method == "HEAD", closeRequested: head.closeRequested))
        let request = HTTP2Request(
            method: head.method, path: head.path, authority: head.authority, scheme: ssl == nil ? "http" : "https",
            headers: head.headers, body: body, peerCertificate: peerCertificate, connectionID: id,
            streamID: requestID, httpVersion: .http1_1)
        loop.deliver(request)
    }

    /// Answers a request the parser refused (400, 413, 417, 431, 501, 505) and closes.
    private func refuseHTTP1(_ failure: HTTP1ParseFailure) {
        guard let http1 else { return }
        requestCount += 1
        HTTP1ResponseWriter.write(
            HTTP1ResponseWriter.refusal(failure), headOnly: false, closing: true, into: &output.bytes)
        http1.state = .closing
        loop.logger.debug(
            "HTTP/1.1 request refused",
            [
                "connection": .int(Int(id)), "status": .int(failure.status), "reason": .string(failure.message),
            ])
    }

    func answerHTTP1(requestID: Int32, _ response: HTTP2Response) {
        guard let http1, case .awaiting(let pending) = http1.state, pending.id == requestID else { return }
        http1.state = .answered(pending, response)
    }

    /// A reset has no HTTP/1.1 form: the connection closes without an answer.
    func resetHTTP1(requestID: Int32) {
        guard let http1, case .awaiting(let pending) = http1.state, pending.id == requestID else { return }
        http1.state = .closing
    }

    /// GOAWAY's HTTP/1.1 form: the current answer says `connection: close`
    /// and is the last; with none outstanding and nothing half-received, the
    /// connection closes now.
    func goAwayHTTP1() {
        guard let http1 else { return }
        http1.closeAfterAnswer = true
        if http1.isReading, !http1.parser.hasBufferedInput { http1.state = .closing }
    }

    /// At flush time: writes an arrived answer into the output, then takes the
    /// next buffered request, if any.
    func writeHTTP1Answer() {
        guard let http1, case .answered(let pending, let response) = http1.state else { return }
        let closing = pending.closeRequested || http1.closeAfterAnswer
        HTTP1ResponseWriter.write(response, headOnly: pending.headOnly, closing: closing, into: &output.bytes)
        http1.state = closing ? .closing : .reading
        lastActivityAt = MonotonicClock.now()
        processHTTP1Input()
        armHTTP1HeadDeadline()
    }

    /// A request head after the first has `headerTimeout` from when its
    /// first bytes are taken in (the first one's deadline runs from accept):
    /// a client cannot hold the connection by sending a head a byte at a time.
    private func armHTTP1HeadDeadline() {
        guard headerDeadline == nil, let http1, http1.isReading, http1.parser.isReadingHead else { return }
        let deadline = MonotonicClock.deadline(after: loop.configuration.headerTimeout)
        headerDeadline = deadline
        loop.scheduleDeadlineCheck(for: self, at: deadline)
    }
}
