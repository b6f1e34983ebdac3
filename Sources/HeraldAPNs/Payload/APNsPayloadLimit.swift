import HeraldCore

/// APNs' maximum request body sizes.
///
/// - Important: 4096 bytes for every push type except VoIP (5120). A larger
///   body is answered 413 PayloadTooLarge; Herald checks before sending.
public enum APNsPayloadLimit {
    public static let standardBytes = 4096
    public static let voipBytes = 5120

    /// The limit for `pushType`.
    public static func maxBytes(for pushType: PushType) -> Int {
        pushType == .voip ? voipBytes : standardBytes
    }
}
