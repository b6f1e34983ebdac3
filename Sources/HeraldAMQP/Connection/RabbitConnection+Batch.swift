import CRabbitMQ
import Glibc

extension RabbitConnection {
    /// Publishes `messages` with one socket write instead of three per message.
    ///
    /// rabbitmq-c's `amqp_basic_publish` sends the method, header and body
    /// frames with a system call each. Here the frames are encoded with
    /// rabbitmq-c's own encoders (`amqp_encode_method`,
    /// `amqp_encode_properties`) into one buffer, framed as AMQP 0-9-1 section
    /// 4.2.3 says (type, channel, size, payload, 0xCE; bodies split at
    /// `frame_max`), and written at once. rabbitmq-c writes whole frames and
    /// keeps nothing queued between calls, so the stream stays at a frame
    /// boundary either way. Only on a plain TCP socket: a TLS socket must go
    /// through rabbitmq-c, which owns the TLS session (`canWriteDirectly`).
    func publishBatch(_ channel: UInt16, _ messages: [(message: AMQPMessage, mandatory: Bool)]) throws(AMQPError) {
        guard canWriteDirectly, messages.count > 1 else {
            for (message, mandatory) in messages { try publish(channel, message, mandatory: mandatory) }
            return
        }
        var frames = batchBuffer
        frames.removeAll(keepingCapacity: true)
        for (message, mandatory) in messages {
            try encodePublish(channel, message, mandatory: mandatory, into: &frames)
        }
        try writeAll(frames, operation: "basic.publish (\(messages.count) messages)")
        // Keep the buffer for the next turn, unless a large message grew it.
        batchBuffer = frames.capacity <= 1 << 20 ? frames : []
    }

    /// Encodes a throwaway batch (two messages, one body longer than a frame,
    /// headers) with `publishBatch`'s own code and writes nothing: run on the
    /// connection thread when it connects, before the first real publish.
    ///
    /// In an unoptimized build (the tests, ThreadSanitizer) the encoder's
    /// standard-library calls are not specialized, and the first call of each in
    /// the process instantiates generic metadata and witness tables in the Swift
    /// runtime (`swift_getWitnessTable`), under a once-per-table runtime lock. This
    /// does that first-time work here, so the publish path only ever takes the
    /// runtime's already-initialized fast path. An optimized build specializes
    /// the encoder and makes none of those runtime calls. See docs/amqp.md,
    /// "The batch encoder and the Swift runtime".
    func warmUpBatchEncoder() {
        let message = AMQPMessage(
            exchange: "", routingKey: "warm-up", body: [UInt8](repeating: 0, count: max(1, frameMax)),
            properties: AMQPProperties(headers: ["warm-up": .int(1)], messageID: "warm-up"))
        var frames: [UInt8] = []
        for (message, mandatory) in [(message: message, mandatory: false), (message: message, mandatory: true)] {
            do throws(AMQPError) {
                try encodePublish(Self.warmUpChannel, message, mandatory: mandatory, into: &frames)
            } catch {
                return  // nothing is sent either way; a real publish reports its own encoding error
            }
        }
    }

    /// A channel number for frames that are never written.
    private static let warmUpChannel: UInt16 = 0

    /// `basic.publish` (class 60, method 40); the C macro is a cast Swift does not import.
    static let basicPublishMethod: amqp_method_number_t = 0x003C_0028
    static let basicClass: UInt16 = 60

    private func encodePublish(
        _ channel: UInt16, _ message: AMQPMessage, mandatory: Bool,
        into frames: inout [UInt8]
    ) throws(AMQPError) {
        scratch.recycle()
        var arguments = amqp_basic_publish_t(
            ticket: 0, exchange: bytes(message.exchange), routing_key: bytes(message.routingKey),
            mandatory: mandatory ? 1 : 0, immediate: 0)
        var properties = message.properties.encoded(pool: scratch.pool)
        // Method frame: method id, then the arguments (two short strings and a bit field fit).
        try frame(UInt8(AMQP_FRAME_METHOD), channel, capacities: [4 + 2 + 256 + 256 + 1 + 16], into: &frames) {
            (payload, capacity) throws(AMQPError) -> Int in
            Self.put32(Self.basicPublishMethod, at: payload)
            let encoded = amqp_encode_method(
                Self.basicPublishMethod, &arguments,
                amqp_bytes_t(len: capacity - 4, bytes: payload + 4))
            guard encoded >= 0 else { throw Self.encodingError(encoded, "basic.publish method") }
            return 4 + Int(encoded)
        }
        // Header frame: class, weight 0, body size, then the properties. Headers
        // tables are small; a large one gets a second, larger try.
        try frame(UInt8(AMQP_FRAME_HEADER), channel, capacities: [2048, frameMax - 8], into: &frames) {
            (payload, capacity) throws(AMQPError) -> Int in
            Self.put16(Self.basicClass, at: payload)
            Self.put16(0, at: payload + 2)
            Self.put64(UInt64(message.body.count), at: payload + 4)
            let encoded = amqp_encode_properties(
                Self.basicClass, &properties,
                amqp_bytes_t(len: capacity - 12, bytes: payload + 12))
            guard encoded >= 0 else { throw Self.encodingError(encoded, "basic.publish properties") }
            return 12 + Int(encoded)
        }
        // Body frames of at most frame_max - 8 bytes of payload.
        let chunk = max(1, frameMax - 8)
        var offset = 0
        while offset < message.body.count {
            let end = min(message.body.count, offset + chunk)
            Self.appendFrameHeader(UInt8(AMQP_FRAME_BODY), channel, size: end - offset, into: &frames)
            frames.append(contentsOf: message.body[offset..<end])
            frames.append(UInt8(AMQP_FRAME_END))
            offset = end
        }
    }

    /// Appends one frame whose payload `fill` writes into the space it is given
    /// and returns the length of; each capacity is tried in turn until one fits.
    private func frame(
        _ type: UInt8, _ channel: UInt16, capacities: [Int], into frames: inout [UInt8],
        _ fill: (UnsafeMutableRawPointer, Int) throws(AMQPError) -> Int
    ) throws(AMQPError) {
        let start = frames.count
        var lastError: AMQPError?
        for capacity in capacities where capacity > 0 {
            Self.appendFrameHeader(type, channel, size: 0, into: &frames)
            frames.append(contentsOf: repeatElement(0, count: capacity))
            // `withUnsafeMutableBytes` rethrows untyped: carry the typed error out as a Result.
            let filled = frames.withUnsafeMutableBytes {
                (raw: UnsafeMutableRawBufferPointer) -> Result<Int, AMQPError> in
                do throws(AMQPError) {
                    return .success(try fill(raw.baseAddress.unsafelyUnwrapped + start + 7, capacity))
                } catch {
                    return .failure(error)
                }
            }
            switch filled {
            case .success(let length):
                frames.removeSubrange((start + 7 + length)...)
                frames.withUnsafeMutableBytes {
                    Self.put32(UInt32(length), at: $0.baseAddress.unsafelyUnwrapped + start + 3)
                }
                frames.append(UInt8(AMQP_FRAME_END))
                return
            case .failure(let error):
                frames.removeSubrange(start...)
                lastError = error
            }
        }
        throw lastError ?? AMQPError(.library, operation: "encode frame", detail: "no room", isRetryable: false)
    }

    private static func appendFrameHeader(_ type: UInt8, _ channel: UInt16, size: Int, into frames: inout [UInt8]) {
        frames.append(type)
        frames.append(UInt8(channel >> 8))
        frames.append(UInt8(channel & 0xFF))
        let size = UInt32(size)
        frames.append(contentsOf: [
            UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF),
        ])
    }

    private static func put16(_ value: UInt16, at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: value.bigEndian, as: UInt16.self)
    }

    private static func put32(_ value: UInt32, at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: value.bigEndian, toByteOffset: 0, as: UInt32.self)
    }

    private static func put64(_ value: UInt64, at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: value.bigEndian, toByteOffset: 0, as: UInt64.self)
    }

    private static func encodingError(_ status: Int32, _ what: String) -> AMQPError {
        RabbitStatus.error(.code(status), operation: "encode \(what)")
            ?? AMQPError(.library, operation: "encode \(what)", detail: "status \(status)", isRetryable: false)
    }

    /// Writes all of `bytes` to the socket, waiting for room when it is full.
    private func writeAll(_ bytes: [UInt8], operation: @autoclosure () -> String) throws(AMQPError) {
        let fd = socketFD
        var written = 0
        while written < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.unsafelyUnwrapped + written, raw.count - written, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                written += sent
                continue
            }
            let code = errno
            if sent < 0 && (code == EAGAIN || code == EWOULDBLOCK || code == EINTR) {
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 1000)
                continue
            }
            throw AMQPError(
                .connectionLost, operation: operation(),
                detail: sent == 0 ? "socket closed" : String(cString: strerror(code)), isRetryable: true)
        }
    }
}
