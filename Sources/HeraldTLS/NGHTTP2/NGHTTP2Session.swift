import CNGHTTP2

/// The `nghttp2_session_callbacks` and `nghttp2_option` a loop shares among
/// all its sessions: created together, freed together. The client and the
/// server each install their callbacks on `callbacks`; every callback finds
/// its connection through the session's user data (`owner(_:)`).
public final class NGHTTP2SessionSetup {
    public let callbacks: OpaquePointer
    public let option: OpaquePointer

    /// Fails with the call that failed and nghttp2's code.
    public init() throws(NGHTTP2Failure) {
        var createdOption: OpaquePointer?
        let optionRV = nghttp2_option_new(&createdOption)
        guard optionRV == 0, let createdOption else { throw NGHTTP2Failure(call: "nghttp2_option_new", code: optionRV) }
        var created: OpaquePointer?
        let rv = nghttp2_session_callbacks_new(&created)
        guard rv == 0, let created else {
            nghttp2_option_del(createdOption)
            throw NGHTTP2Failure(call: "nghttp2_session_callbacks_new", code: rv)
        }
        option = createdOption
        callbacks = created
    }

    deinit {
        nghttp2_session_callbacks_del(callbacks)
        nghttp2_option_del(option)
    }

    /// The object a session was created with as its user data (not retained by the session).
    public static func owner<Owner: AnyObject>(
        _ userData: UnsafeMutableRawPointer, as _: Owner.Type = Owner.self
    ) -> Owner {
        Unmanaged<Owner>.fromOpaque(userData).takeUnretainedValue()
    }
}

/// An nghttp2 call that failed: which call, and nghttp2's code and text.
public struct NGHTTP2Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public let call: String
    public let code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// nghttp2's text for `code`.
    public var message: String { Self.text(code) }

    public var description: String { "\(call): \(message)" }

    /// nghttp2's text for an error code.
    public static func text(_ code: Int32) -> String {
        String(cString: nghttp2_strerror(code))
    }
}

/// One header field of a HEADERS frame, as nghttp2's header callback hands
/// it over (valid only during the callback).
public struct NGHTTP2Header {
    public let streamID: Int32
    public let name: UnsafeBufferPointer<UInt8>
    public let value: UnsafeBufferPointer<UInt8>

    /// The header field of the callback's arguments, or nil when one is
    /// missing or the frame is not HEADERS (the header fields of a
    /// PUSH_PROMISE are nobody's).
    public init?(
        frame: UnsafePointer<nghttp2_frame>?, name: UnsafePointer<UInt8>?, nameLength: Int,
        value: UnsafePointer<UInt8>?, valueLength: Int
    ) {
        guard let frame, let name, let value, frame.pointee.hd.isType(NGHTTP2_HEADERS) else { return nil }
        streamID = frame.pointee.hd.stream_id
        self.name = UnsafeBufferPointer(start: name, count: nameLength)
        self.value = UnsafeBufferPointer(start: value, count: valueLength)
    }
}

extension nghttp2_frame_hd {
    /// Whether the frame is of `type`.
    public func isType(_ type: nghttp2_frame_type) -> Bool {
        self.type == UInt8(type.rawValue)
    }

    /// Whether the frame carries `flag`.
    public func has(_ flag: nghttp2_flag) -> Bool {
        flags & UInt8(flag.rawValue) != 0
    }
}
