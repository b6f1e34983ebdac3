import HeraldCore

/// Handing complete HTTP/2 request streams to the handler (or refusing them).
extension ServerEventLoop {
    /// Called from nghttp2's callbacks when a request stream is complete.
    func dispatch(_ stream: RequestStream, on connection: ServerConnection) {
        connection.requestCount += 1
        if let last = connection.goAwayLastStreamID, stream.id > last {
            connection.submitReset(streamID: stream.id, code: .refusedStream)
            return
        }
        if stream.headerListTooLarge {
            connection.submitResponse(
                streamID: stream.id,
                HTTP2Response(
                    status: 431, headers: [("content-type", "text/plain; charset=utf-8")],
                    text: "the header list exceeds \(configuration.maxHeaderListBytes) bytes\n"))
            return
        }
        if stream.bodyTooLarge {
            connection.submitResponse(
                streamID: stream.id, HTTP2Response(status: 413, text: "{\"reason\":\"PayloadTooLarge\"}"))
            return
        }
        let request = HTTP2Request(
            method: stream.method, path: stream.path, authority: stream.authority, scheme: stream.scheme,
            headers: stream.headers, body: stream.body, peerCertificate: connection.peerCertificate,
            connectionID: connection.id, streamID: stream.id, httpVersion: .http2)
        stream.headers = []
        stream.body = []
        deliver(request)
        if let limit = configuration.goAwayAfterStreams, connection.requestCount >= limit,
            connection.goAwayLastStreamID == nil
        {
            connection.submitGoAway(lastStreamID: stream.id, code: .noError, debugData: [])
            logger.debug(
                "GOAWAY after stream limit",
                ["connection": .int(Int(connection.id)), "last_stream": .int(Int(stream.id))])
        }
    }
}
