import HeraldCore

/// A device the registry retired because it was not registered again for
/// `registry.expire_after` (``RegistryStore/retireDevices(seenBefore:limit:)``):
/// what its `registry_expired` result tells upstream.
public struct RetiredDevice: Sendable, Equatable {
    public var device: DeviceKey
    /// Its last `register`.
    public var lastSeen: Timestamp
    /// The channels it was taken off, in byte order.
    public var channels: [String]

    public init(device: DeviceKey, lastSeen: Timestamp, channels: [String]) {
        self.device = device
        self.lastSeen = lastSeen
        self.channels = channels
    }
}
