import HeraldCore

/// One device of one app: what a registration is about, and what every
/// change to a device's channels names.
///
/// The app is part of the key because one phone has a distinct token per
/// app, and an app's registrations must never reach another app's
/// credentials. The address is a device address only (`.token`, or `.fid` on
/// FCM); the store refuses topics and conditions.
public struct DeviceKey: Sendable, Hashable, CustomStringConvertible {
    public var app: String
    public var provider: Provider
    public var address: Target.Address

    public init(app: String, provider: Provider, address: Target.Address) {
        self.app = app
        self.provider = provider
        self.address = address
    }

    /// `chat/apns token a1b2c3d4…`: the address masked as logs mask it, since
    /// errors naming a device end up in logs.
    public var description: String {
        "\(app)/\(provider) \(address.field) \(LogValue.mask(token: address.value))"
    }
}
