import CNGHTTP2
import HeraldTLS

/// The nghttp2 callbacks and option shared by every connection of one client
/// loop (`NGHTTP2SessionSetup`). Each C callback finds its `H2Connection`
/// through the session's user data and hands the event to the loop.
final class H2SessionCallbacks {
    private let setup: NGHTTP2SessionSetup
    var callbacks: OpaquePointer { setup.callbacks }
    var option: OpaquePointer { setup.option }

    init?() {
        guard let setup = try? NGHTTP2SessionSetup() else { return nil }
        self.setup = setup
        let callbacks = setup.callbacks
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            session, frame, name, nameLength, value, valueLength, _, userData in
            guard let session, let userData,
                let header = NGHTTP2Header(
                    frame: frame, name: name, nameLength: nameLength, value: value, valueLength: valueLength)
            else { return 0 }
            let connection = H2Connection.from(userData)
            connection.loop.receiveHeader(
                session, streamID: header.streamID, name: header.name, value: header.value, on: connection)
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) {
            session, _, streamID, data, length, userData in
            guard let session, let data, let userData else { return 0 }
            H2Connection.from(userData).loop.receiveData(
                session, streamID: streamID, UnsafeBufferPointer(start: data, count: length),
                on: H2Connection.from(userData))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            guard let frame, let userData else { return 0 }
            let connection = H2Connection.from(userData)
            let hd = frame.pointee.hd
            if hd.isType(NGHTTP2_GOAWAY) {
                connection.loop.goAwayReceived(on: connection, errorCode: frame.pointee.goaway.error_code)
            } else if hd.isType(NGHTTP2_SETTINGS), !hd.has(NGHTTP2_FLAG_ACK) {
                connection.loop.settingsReceived(on: connection)
            } else if hd.isType(NGHTTP2_PING), hd.has(NGHTTP2_FLAG_ACK) {
                connection.pingSentAt = nil
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
                if let base = raw.baseAddress {
                    buffer.update(from: base.assumingMemoryBound(to: UInt8.self) + stream.bodyOffset, count: count)
                }
            }
            stream.bodyOffset += count
        }
        if stream.bodyOffset >= body.count { flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
        return count
    }
}
