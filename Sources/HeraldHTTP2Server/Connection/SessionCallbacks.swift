import CNGHTTP2

/// Owns the `nghttp2_session_callbacks` and `nghttp2_option` shared by every
/// connection of a loop. Each C callback finds its `ServerConnection` through
/// the session's user data.
final class SessionCallbacks {
    let callbacks: OpaquePointer
    let option: OpaquePointer

    init(streamResetLimit: HTTP2ServerConfiguration.StreamResetLimit) throws(HTTP2ServerError) {
        var createdOption: OpaquePointer?
        let optionRV = nghttp2_option_new(&createdOption)
        guard optionRV == 0, let createdOption else {
            throw .nghttp2(call: "nghttp2_option_new", code: optionRV, message: String(cString: nghttp2_strerror(optionRV)))
        }
        option = createdOption
        nghttp2_option_set_stream_reset_rate_limit(
            option, UInt64(max(1, streamResetLimit.burst)), UInt64(max(1, streamResetLimit.perSecond)))
        var created: OpaquePointer?
        let rv = nghttp2_session_callbacks_new(&created)
        guard rv == 0, let created else {
            nghttp2_option_del(option)
            throw .nghttp2(call: "nghttp2_session_callbacks_new", code: rv, message: String(cString: nghttp2_strerror(rv)))
        }
        callbacks = created
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            guard frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
                  frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
            ServerConnection.from(userData).beginStream(frame.pointee.hd.stream_id)
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, userData in
            guard let frame, let name, let value, let userData else { return 0 }
            guard frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
            ServerConnection.from(userData).receiveHeader(
                streamID: frame.pointee.hd.stream_id,
                name: UnsafeBufferPointer(start: name, count: nameLength),
                value: UnsafeBufferPointer(start: value, count: valueLength))
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, userData in
            guard let data, let userData else { return 0 }
            ServerConnection.from(userData).receiveData(streamID: streamID, UnsafeBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            let type = frame.pointee.hd.type
            switch type {
            case UInt8(NGHTTP2_RST_STREAM.rawValue):
                ServerConnection.from(userData).receiveReset(streamID: frame.pointee.hd.stream_id)
                return 0
            case UInt8(NGHTTP2_SETTINGS.rawValue):
                if frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 { ServerConnection.from(userData).receiveSettings() }
                return 0
            case UInt8(NGHTTP2_HEADERS.rawValue), UInt8(NGHTTP2_DATA.rawValue):
                break
            default:
                return 0
            }
            guard frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 else { return 0 }
            ServerConnection.from(userData).endStream(frame.pointee.hd.stream_id)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, userData in
            guard let frame, let userData, frame.pointee.hd.type == UInt8(NGHTTP2_GOAWAY.rawValue) else { return 0 }
            ServerConnection.from(userData).goAwaySentCode = frame.pointee.goaway.error_code
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, userData in
            guard let userData else { return 0 }
            ServerConnection.from(userData).closeStream(streamID)
            return 0
        }
    }

    deinit {
        nghttp2_session_callbacks_del(callbacks)
        nghttp2_option_del(option)
    }

    /// The data-provider callback that copies a stream's response body into nghttp2's frame buffer.
    static let readResponseBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
        guard let buffer, let flags, let userData else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        return ServerConnection.from(userData).readResponseBody(streamID: streamID, into: buffer, length: length, flags: flags)
    }
}
