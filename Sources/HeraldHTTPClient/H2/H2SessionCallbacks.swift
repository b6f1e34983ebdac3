import CNGHTTP2

/// Owns the `nghttp2_session_callbacks` and `nghttp2_option` shared by every
/// connection of one client loop. Each C callback finds its `H2Connection`
/// through the session's user data and hands the event to the loop.
final class H2SessionCallbacks {
    let callbacks: OpaquePointer
    let option: OpaquePointer

    init?() {
        var createdOption: OpaquePointer?
        guard nghttp2_option_new(&createdOption) == 0, let createdOption else { return nil }
        option = createdOption
        var created: OpaquePointer?
        guard nghttp2_session_callbacks_new(&created) == 0, let created else {
            nghttp2_option_del(option)
            return nil
        }
        callbacks = created
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { session, frame, name, nameLength, value, valueLength, _, userData in
            guard let session, let frame, let name, let value, let userData,
                  frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
            let connection = H2Connection.from(userData)
            connection.loop.receiveHeader(
                session, streamID: frame.pointee.hd.stream_id, name: UnsafeBufferPointer(start: name, count: nameLength),
                value: UnsafeBufferPointer(start: value, count: valueLength), on: connection)
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { session, _, streamID, data, length, userData in
            guard let session, let data, let userData else { return 0 }
            H2Connection.from(userData).loop.receiveData(
                session, streamID: streamID, UnsafeBufferPointer(start: data, count: length), on: H2Connection.from(userData))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            let connection = H2Connection.from(userData)
            switch UInt32(frame.pointee.hd.type) {
            case NGHTTP2_GOAWAY.rawValue:
                connection.loop.goAwayReceived(on: connection, errorCode: frame.pointee.goaway.error_code)
            case NGHTTP2_SETTINGS.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0:
                connection.loop.settingsReceived(on: connection)
            case NGHTTP2_PING.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0:
                connection.pingSentAt = nil
            default:
                break
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, errorCode, userData in
            guard let userData else { return 0 }
            let connection = H2Connection.from(userData)
            connection.loop.streamClosed(streamID, errorCode: errorCode, on: connection)
            return 0
        }
    }

    deinit {
        nghttp2_session_callbacks_del(callbacks)
        nghttp2_option_del(option)
    }

    /// The data-provider callback that copies a request's body into nghttp2's frame buffer.
    static let readRequestBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
        guard let buffer, let flags, let userData else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        guard let stream = H2Connection.from(userData).streams[streamID] else {
            return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
        let body = stream.request.body
        let count = min(length, body.count - stream.bodyOffset)
        if count > 0 {
            body.withUnsafeBytes { raw in
                if let base = raw.baseAddress { buffer.update(from: base.assumingMemoryBound(to: UInt8.self) + stream.bodyOffset, count: count) }
            }
            stream.bodyOffset += count
        }
        if stream.bodyOffset >= body.count { flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
        return count
    }
}
