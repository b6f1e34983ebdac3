import CNGHTTP2
import HeraldTLS

/// The nghttp2 callbacks and option shared by every connection of a loop
/// (`NGHTTP2SessionSetup`). Each C callback finds its `ServerConnection`
/// through the session's user data.
final class SessionCallbacks {
    private let setup: NGHTTP2SessionSetup
    var callbacks: OpaquePointer { setup.callbacks }
    var option: OpaquePointer { setup.option }

    init(streamResetLimit: HTTP2ServerConfiguration.StreamResetLimit) throws(HTTP2ServerError) {
        do {
            setup = try NGHTTP2SessionSetup()
        } catch {
            throw .nghttp2(call: error.call, code: error.code, message: error.message)
        }
        let callbacks = setup.callbacks
        nghttp2_option_set_stream_reset_rate_limit(
            setup.option, UInt64(max(1, streamResetLimit.burst)), UInt64(max(1, streamResetLimit.perSecond)))
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            guard frame.pointee.hd.isType(NGHTTP2_HEADERS), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else {
                return 0
            }
            ServerConnection.from(userData).beginStream(frame.pointee.hd.stream_id)
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, userData in
            guard let userData,
                let header = NGHTTP2Header(
                    frame: frame, name: name, nameLength: nameLength, value: value, valueLength: valueLength)
            else { return 0 }
            ServerConnection.from(userData).receiveHeader(
                streamID: header.streamID, name: header.name, value: header.value)
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, userData in
            guard let data, let userData else { return 0 }
            ServerConnection.from(userData).receiveData(
                streamID: streamID, UnsafeBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            let hd = frame.pointee.hd
            if hd.isType(NGHTTP2_RST_STREAM) {
                ServerConnection.from(userData).receiveReset(streamID: hd.stream_id)
            } else if hd.isType(NGHTTP2_SETTINGS) {
                if !hd.has(NGHTTP2_FLAG_ACK) { ServerConnection.from(userData).receiveSettings() }
            } else if hd.isType(NGHTTP2_HEADERS) || hd.isType(NGHTTP2_DATA), hd.has(NGHTTP2_FLAG_END_STREAM) {
                ServerConnection.from(userData).endStream(hd.stream_id)
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, userData in
            guard let frame, let userData, frame.pointee.hd.isType(NGHTTP2_GOAWAY) else { return 0 }
            ServerConnection.from(userData).goAwaySentCode = frame.pointee.goaway.error_code
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, userData in
            guard let userData else { return 0 }
            ServerConnection.from(userData).closeStream(streamID)
            return 0
        }
    }

    /// The data-provider callback that copies a stream's response body into nghttp2's frame buffer.
    static let readResponseBody: nghttp2_data_source_read_callback = {
        _, streamID, buffer, length, flags, _, userData in
        guard let buffer, let flags, let userData else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        return ServerConnection.from(userData).readResponseBody(
            streamID: streamID, into: buffer, length: length, flags: flags)
    }
}
