/// HTTP/2 error codes (RFC 9113 §7) for RST_STREAM and GOAWAY frames.
public enum HTTP2ErrorCode: UInt32, Sendable {
    case noError = 0x0
    case protocolError = 0x1
    case internalError = 0x2
    case flowControlError = 0x3
    case settingsTimeout = 0x4
    case streamClosed = 0x5
    case frameSizeError = 0x6
    /// The stream was not processed; the client may retry it on any connection.
    case refusedStream = 0x7
    case cancel = 0x8
    case compressionError = 0x9
    case connectError = 0xa
    case enhanceYourCalm = 0xb
    case inadequateSecurity = 0xc
    case http11Required = 0xd
}
