import CNGHTTP2

/// What the loop's actions do to a connection: answers, resets, GOAWAY and
/// stream limits become frames on the HTTP/2 session, or their HTTP/1.1
/// counterparts (an answer, a close, `connection: close`; no stream limit).
extension ServerConnection {
    func answer(streamID: Int32, _ response: HTTP2Response) {
        if http1 != nil { return answerHTTP1(requestID: streamID, response) }
        submitResponse(streamID: streamID, response)
    }

    func reset(streamID: Int32, code: HTTP2ErrorCode) {
        if http1 != nil { return resetHTTP1(requestID: streamID) }
        submitReset(streamID: streamID, code: code)
    }

    func goAway(lastStreamID: Int32, code: HTTP2ErrorCode, debugData: [UInt8]) {
        if http1 != nil { return goAwayHTTP1() }
        submitGoAway(lastStreamID: lastStreamID, code: code, debugData: debugData)
    }

    /// Advertises a new SETTINGS_MAX_CONCURRENT_STREAMS (HTTP/2; nothing for HTTP/1.1).
    /// nghttp2 refuses streams over it with REFUSED_STREAM until the client
    /// acknowledges it, and treats streams over an acknowledged limit as a
    /// connection error (GOAWAY PROTOCOL_ERROR).
    func setMaxConcurrentStreams(_ limit: Int) {
        guard let session, advertisedMaxConcurrentStreams != limit else { return }
        advertisedMaxConcurrentStreams = limit
        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: UInt32(clamping: max(0, limit)))
        ]
        _ = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
    }

    /// A graceful shutdown's part: GOAWAY(NO_ERROR, last processed stream) so
    /// streams in flight finish (HTTP/2), or close after the current answer
    /// (HTTP/1.1). Returns false for a connection whose protocol is not known
    /// yet (mid-handshake): it has nothing in flight and is closed at once.
    func beginGracefulClose() -> Bool {
        if http1 != nil {
            goAwayHTTP1()
            return true
        }
        guard session != nil else { return false }
        submitGoAway(lastStreamID: lastProcessedStreamID, code: .noError, debugData: [])
        return true
    }

    func submitResponse(streamID: Int32, _ response: HTTP2Response) {
        guard let session, let stream = streams[streamID] else { return }
        stream.responseBody = response.body
        stream.responseOffset = 0
        var block = HeaderBlock(status: response.status, headers: response.headers)
        let rv = block.withNameValues { nva, count in
            if response.body.isEmpty {
                return nghttp2_submit_response(session, streamID, nva, count, nil)
            }
            var provider = nghttp2_data_provider(
                source: nghttp2_data_source(ptr: nil), read_callback: SessionCallbacks.readResponseBody)
            return nghttp2_submit_response(session, streamID, nva, count, &provider)
        }
        if rv != 0 {
            _ = nghttp2_submit_rst_stream(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, HTTP2ErrorCode.internalError.rawValue)
        }
        stream.answered = true
    }

    func submitReset(streamID: Int32, code: HTTP2ErrorCode) {
        guard let session, let stream = streams[streamID] else { return }
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, code.rawValue)
        stream.answered = true
    }

    func submitGoAway(lastStreamID: Int32, code: HTTP2ErrorCode, debugData: [UInt8]) {
        guard let session else { return }
        let last = min(lastStreamID, goAwayLastStreamID ?? Int32.max)
        goAwayLastStreamID = last
        _ = debugData.withUnsafeBufferPointer { data in
            nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, code.rawValue, data.baseAddress, data.count)
        }
    }

    /// The highest stream id nghttp2 has handed to us, for a graceful GOAWAY.
    var lastProcessedStreamID: Int32 {
        guard let session else { return 0 }
        return nghttp2_session_get_last_proc_stream_id(session)
    }
}
