import HeraldCore

/// One device on some channels of its app with one set of APNs overrides:
/// what one `register` call (one registry command, one line of
/// `herald registry import`) asks for, and what one line of
/// `herald registry export` says. A batch of them is
/// ``RegistryStore/register(batch:at:)``; an export page lists them.
public struct DeviceRegistration: Sendable, Equatable {
    public var device: DeviceKey
    /// In the order given; the store registers each once.
    public var channels: [String]
    /// The APNs overrides on these channels (nil: the app's).
    public var environment: String?
    public var topic: String?
    /// What the device's row gets (values nil keep what it holds).
    public var profile: DeviceProfile

    public init(
        device: DeviceKey, channels: [String], environment: String? = nil, topic: String? = nil,
        profile: DeviceProfile = DeviceProfile()
    ) {
        self.device = device
        self.channels = channels
        self.environment = environment
        self.topic = topic
        self.profile = profile
    }
}

/// One page of ``RegistryStore/exportPage(app:after:limit:)``: devices in the
/// device index's order, each with its channels, and where the next page starts.
public struct DeviceRegistrationPage: Sendable {
    /// A device whose channels have different overrides is one entry per set
    /// of overrides, those entries adjacent.
    public var registrations: [DeviceRegistration]
    /// The last device of this page, to pass as `after`; nil after the last page.
    public var next: DeviceKey?

    public init(registrations: [DeviceRegistration], next: DeviceKey?) {
        self.registrations = registrations
        self.next = next
    }
}
