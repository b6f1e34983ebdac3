import CNGHTTP2

/// Frames the loop queues on a connection's session (responses, RST_STREAM, GOAWAY).
extension ServerConnection {
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
        if rv != 0 { _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, HTTP2ErrorCode.internalError.rawValue) }
    }

    func submitReset(streamID: Int32, code: HTTP2ErrorCode) {
        guard let session, streams[streamID] != nil else { return }
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, code.rawValue)
    }

    func submitGoAway(lastStreamID: Int32, code: HTTP2ErrorCode, debugData: [UInt8]) {
        guard let session else { return }
        let last = min(lastStreamID, goAwayLastStreamID ?? Int32.max)
        goAwayLastStreamID = last
        _ = debugData.withUnsafeBufferPointer { data in
            nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, code.rawValue, data.baseAddress, data.count)
        }
    }

    /// The highest stream id nghttp2 has handed to us, for a graceful GOAWAY.
    var lastProcessedStreamID: Int32 {
        guard let session else { return 0 }
        return nghttp2_session_get_last_proc_stream_id(session)
    }
}
