/// A target naming a registry channel (`{"channel": "user:42"}`) instead of
/// a device: Herald expands it, when it delivers, to every device of the
/// event's app registered on the channel (docs/registry.md).
public struct ChannelTarget: Sendable, Hashable {
    /// The channel's name: any string of 1 to ``maxNameBytes`` bytes without
    /// control characters (`user:42`, `room:general`).
    public var channel: String
    /// Only the devices of these providers; nil: every provider.
    public var providers: Set<Provider>?

    public init(channel: String, providers: Set<Provider>? = nil) {
        self.channel = channel
        self.providers = providers
    }

    /// The longest channel name, in bytes of UTF-8: the one limit events and the registry share.
    public static let maxNameBytes = 255

    /// Why `name` cannot be a channel name, or nil when it can.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "is empty; a channel name has 1 to \(maxNameBytes) bytes" }
        if name.utf8.count > maxNameBytes { return "is \(name.utf8.count) bytes, over the limit of \(maxNameBytes)" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }) {
            return "contains a control character"
        }
        return nil
    }
}
