import CNGHTTP2
import HeraldSystem

/// Stream events from the nghttp2 callbacks (on the loop thread, inside `nghttp2_session_mem_recv`).
extension ServerConnection {
    func beginStream(_ streamID: Int32) {
        streams[streamID] = RequestStream(id: streamID)
    }

    func receiveHeader(streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard let stream = streams[streamID],
            admitHeaderField(of: stream, nameLength: name.count, valueLength: value.count)
        else { return }
        let text = String(decoding: value, as: UTF8.self)
        if name.first == UInt8(ascii: ":") {
            switch String(decoding: name, as: UTF8.self) {
            case ":method": stream.method = text
            case ":path": stream.path = text
            case ":authority": stream.authority = text
            case ":scheme": stream.scheme = text
            default: break
            }
        } else {
            stream.headers.append((String(decoding: name, as: UTF8.self), text))
        }
    }

    func receiveData(streamID: Int32, _ data: UnsafeBufferPointer<UInt8>) {
        guard let stream = streams[streamID], !stream.bodyTooLarge, !stream.headerListTooLarge else { return }
        if stream.body.count + data.count > loop.maxRequestBodyBytes {
            stream.bodyTooLarge = true
            stream.body = []
        } else {
            stream.body.append(contentsOf: data)
        }
    }

    func endStream(_ streamID: Int32) {
        guard let stream = streams[streamID] else { return }
        loop.dispatch(stream, on: self)
    }

    func closeStream(_ streamID: Int32) {
        guard streams.removeValue(forKey: streamID) != nil else { return }
        // Idleness starts when the last stream is done.
        if streams.isEmpty { lastActivityAt = MonotonicClock.now() }
    }

    func readResponseBody(
        streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let stream = streams[streamID] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        let count = min(length, stream.responseBody.count - stream.responseOffset)
        stream.responseBody.withUnsafeBufferPointer { source in
            guard count > 0, let base = source.baseAddress else { return }
            buffer.update(from: base + stream.responseOffset, count: count)
        }
        stream.responseOffset += count
        if stream.responseOffset >= stream.responseBody.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            stream.responseBody = []
        }
        return count
    }
}
