import HeraldCore

/// The bounds the store enforces, so one device or one channel cannot grow
/// without end: one place for every number, handed to a store at creation
/// (tests use small ones to reach them).
public struct RegistryLimits: Sendable, Hashable {
    /// The most channels one device (app, provider, address) may be on.
    public var maxChannelsPerDevice: Int
    /// The most devices one channel of one app may hold.
    public var maxDevicesPerChannel: Int
    /// The most registrations (a device on a channel: one row) one app may
    /// hold over all its channels, so a sender of commands cannot fill the
    /// database. Counted in `herald_apps`, one row per app.
    public var maxRegistrationsPerApp: Int
    /// The longest channel name, in UTF-8 bytes.
    public var maxChannelBytes: Int
    /// The longest app name, in UTF-8 bytes (an APNs topic is checked by its provider's rules).
    public var maxNameBytes: Int
    /// The most registrations one page of ``RegistryStore/devices(app:channel:providers:after:limit:)`` may ask for.
    public var maxPageSize: Int
    /// The most keys a device's `attributes` map may hold.
    public var maxAttributes: Int = 32
    /// The longest attribute key, in bytes (each one of `A-Z a-z 0-9 _ . -`).
    public var maxAttributeKeyBytes: Int = 64
    /// The longest attribute value, in UTF-8 bytes.
    public var maxAttributeValueBytes: Int = 256
    /// The longest `locale`, in bytes: room for a language tag with its extensions.
    public var maxLocaleBytes: Int = 128
    /// The longest `timezone`, in bytes (the longest IANA name today is 32).
    public var maxTimezoneBytes: Int = 64

    /// 1000 channels per device, 1,000,000 devices per channel, 10,000,000
    /// registrations per app, 255-byte names, pages of up to 10,000; device
    /// attributes of at most 32 keys of 64 bytes and values of 256 bytes, a
    /// locale of 128 bytes, a time zone of 64.
    public static let `default` = RegistryLimits(maxChannelsPerDevice: 1000, maxDevicesPerChannel: 1_000_000)

    /// The default ``maxRegistrationsPerApp``: ten million rows, room for a
    /// few million devices on a few channels each.
    public static let defaultMaxRegistrationsPerApp = 10_000_000

    public init(
        maxChannelsPerDevice: Int, maxDevicesPerChannel: Int,
        maxRegistrationsPerApp: Int = RegistryLimits.defaultMaxRegistrationsPerApp,
        maxChannelBytes: Int = ChannelTarget.maxNameBytes, maxNameBytes: Int = 255, maxPageSize: Int = 10_000
    ) {
        self.maxChannelsPerDevice = maxChannelsPerDevice
        self.maxDevicesPerChannel = maxDevicesPerChannel
        self.maxRegistrationsPerApp = maxRegistrationsPerApp
        self.maxChannelBytes = maxChannelBytes
        self.maxNameBytes = maxNameBytes
        self.maxPageSize = maxPageSize
    }
}
