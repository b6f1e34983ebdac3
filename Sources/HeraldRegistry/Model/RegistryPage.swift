/// Where a walk through a channel's devices stopped: the next page starts
/// after it. Opaque to callers; its text form (``description``,
/// ``init(_:)``) carries it through an API and back.
///
/// It holds the internal id of the last registration returned: registrations
/// are listed in id order, which neither moving a membership to a new token
/// nor removing others changes, so a walk returns each registration that
/// stays on the channel exactly once.
public struct RegistryCursor: Sendable, Hashable, CustomStringConvertible {
    let lastID: Int64

    init(lastID: Int64) { self.lastID = lastID }

    /// A cursor from its text form; nil for text no cursor has.
    public init?(_ description: String) {
        guard let id = Int64(description), id >= 0 else { return nil }
        lastID = id
    }

    public var description: String { String(lastID) }
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
