import HeraldCore

/// One provider's simulated service, as `herald simulate` learns it: its
/// section of the simulator config, its flags, the services it builds, its
/// admin routes and what it says at start-up.
///
/// It exists so a provider's simulator is its own folder (APNs/, FCM/,
/// WebPush/) plus one line in `SimulatedProviders.all`: the settings'
/// decoding, the command line, the admin API and `herald simulate` learn
/// providers from that list instead of naming them. The conforming type is
/// the section itself (`SimulatorSettings.APNs`), as a service config
/// section is its provider's `ProviderSettings`.
public protocol SimulatedProvider: Decodable, Sendable, Equatable {
    /// The section's key in the simulator config (`apns:`).
    static var sectionKey: String { get }

    /// The section a config without one means (and flags are laid over).
    static var defaultSection: Self { get }

    /// The `SimulatorService.name` of every service it can build: the names
    /// faults are aimed at (`faults.services`) and the record is filtered by.
    static var serviceNames: [String] { get }

    /// Of `serviceNames`, those faults reach unless `faults.services` says otherwise.
    static var defaultFaultServices: [String] { get }

    /// Its `herald simulate` flags, in `--help` order.
    static var flags: [SimulatorFlag] { get }

    /// Its part of the admin API (`SimulatorAdminRoutes.none` when it has none).
    static var adminRoutes: SimulatorAdminRoutes { get }

    /// Lays the values of its flags (any of `flags` given) over the section.
    mutating func apply(_ flags: SimulatorFlagValues) throws(SimulatorFlagError)

    /// Builds its services (none when the section turns it off), recording
    /// in `recorder`; `now` dates what the section leaves undated.
    func makeServices(recorder: NotificationRecorder, now: Timestamp) throws(SimulatorSetupError)
        -> [any SimulatorService]

    /// Once the server listens at `origin` (`https://host:port`): starts what
    /// needs the origin and says its start-up lines, one `say` each.
    /// `services` are those `makeServices` built.
    func started(_ services: [any SimulatorService], origin: String, say: (String) -> Void) throws
}

extension SimulatedProvider {
    public static var defaultFaultServices: [String] { serviceNames }
    public static var adminRoutes: SimulatorAdminRoutes { .none }

    /// Whether `other` is a section of the same provider with the same values.
    public func isEqual(to other: any SimulatedProvider) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// One line of a provider's flags in `herald simulate --help`: the flags it
/// covers, how they are written, and what they do.
///
/// It exists so the command's option set and help are built from the
/// registered providers (`SimulatedProviders.all`) instead of naming them.
public struct SimulatorFlag: Sendable, Equatable {
    /// The flags, without `--` (`key-id` and `team-id` share a line).
    public let names: [String]
    /// How the help writes them: `--apns-key FILE`.
    public let usage: String
    /// What they do, one entry per help line.
    public let help: [String]

    public init(_ usage: String, names: [String], help: [String]) {
        self.names = names
        self.usage = usage
        self.help = help
    }

    /// A line for one flag: `--name ARGUMENT`.
    public init(_ name: String, _ argument: String, _ help: String...) {
        self.init("--\(name) \(argument)", names: [name], help: help)
    }

    /// The help lines, aligned as `herald simulate --help` aligns its options.
    public var helpLines: [String] {
        let column = 28
        let pad = usage.count < column ? String(repeating: " ", count: column - usage.count) : "  "
        let first = "  " + usage + pad + (help.first ?? "")
        return [first] + help.dropFirst().map { String(repeating: " ", count: column + 2) + $0 }
    }
}

/// A flag value that cannot be used: the message names the flag and what it
/// expected (the command line reports it as a usage error).
public struct SimulatorFlagError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
