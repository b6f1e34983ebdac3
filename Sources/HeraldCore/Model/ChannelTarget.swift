/// A target naming a registry channel (`{"channel": "user:42"}`) instead of
/// a device: Herald expands it, when it delivers, to every device of the
/// event's app registered on the channel (docs/registry.md).
public struct ChannelTarget: Sendable, Hashable {
    /// The channel's name, as ``canonicalName(_:)`` gives it: 1 to
    /// ``maxNameBytes`` bytes of NFC without control or format characters
    /// (`user:42`, `room:general`).
    public var channel: String
    /// Only the devices of these providers; nil: every provider.
    public var providers: Set<Provider>?

    public init(channel: String, providers: Set<Provider>? = nil) {
        self.channel = channel
        self.providers = providers
    }

    /// The longest channel name, in bytes of UTF-8: the one limit events and the registry share.
    public static let maxNameBytes = 255
}
