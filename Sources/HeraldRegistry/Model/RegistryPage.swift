/// Where a walk through a channel's devices stopped: the next page starts
/// after it. Opaque to callers; its text form (``description``,
/// ``init(_:)``) carries it through an API and back.
///
/// It holds the last device returned (provider, address kind, address):
/// a channel's devices are listed in that order, byte for byte on both
/// backends, the same order on every channel of an app — so several
/// channels walked side by side can be merged device by device, and one
/// position (a device) says where each of their walks stands.
public struct RegistryCursor: Sendable, Hashable, CustomStringConvertible {
    let provider: String
    let kind: String
    let address: String

    init(provider: String, kind: String, address: String) {
        (self.provider, self.kind, self.address) = (provider, kind, address)
    }

    /// The position just after `device` on any channel of its app: the walk goes on with the device that follows it.
    public init(after device: DeviceKey) {
        self.init(provider: device.provider.rawValue, kind: device.address.field, address: device.address.value)
    }

    /// A cursor from its text form, `provider:kind:address`; nil for text no cursor has.
    public init?(_ description: String) {
        let parts = description.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        guard parts.allSatisfy({ $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }) else { return nil }
        (provider, kind, address) = (String(parts[0]), String(parts[1]), String(parts[2]))
    }

    public var description: String { "\(provider):\(kind):\(address)" }
}

/// One page of a channel's devices, and where the next one starts (nil when
/// this was the last).
public struct RegistryPage: Sendable {
    public var registrations: [Registration]
    public var next: RegistryCursor?

    public init(registrations: [Registration], next: RegistryCursor?) {
        self.registrations = registrations
        self.next = next
    }
}
