import HeraldConfig
import HeraldSimulator

/// Lays `herald simulate` flags over the settings from `--config`: the
/// shared ones here, each registered provider's by the provider
/// (`SimulatedProviders.all`).
enum SimulateOptions {
    /// The flags every simulator has (the providers' come from `SimulatedProviders.all`).
    static let sharedOptions: [String] = [
        "config", "listen", "record", "tls-dir", "tls-cert", "tls-key", "client-ca", "error-rate", "error-status",
        "latency",
        "goaway-after", "max-streams", "rate-limit", "reset-rate", "drop-rate", "hang-rate", "fault-services",
        "fault-tokens",
    ]

    /// Every flag `herald simulate` takes.
    static var options: [String] {
        sharedOptions + SimulatedProviders.all.flatMap { $0.flags.flatMap(\.names) }
    }

    /// The flags whose value is a file or folder: the shared ones, and each
    /// provider flag whose usage names a FILE or DIR.
    static var files: Set<String> {
        let provided = SimulatedProviders.all.flatMap { $0.flags }.filter {
            $0.usage.hasSuffix(" FILE") || $0.usage.hasSuffix(" DIR")
        }
        return Set(["config", "record", "tls-dir", "tls-cert", "tls-key", "client-ca"] + provided.flatMap(\.names))
    }

    static func apply(_ options: [String: String], to base: SimulatorSettings) throws(UsageError) -> SimulatorSettings {
        do {
            return try apply(SimulatorFlagValues(options), to: base)
        } catch {
            throw UsageError(error.message)
        }
    }

    private static func apply(_ flags: SimulatorFlagValues, to base: SimulatorSettings) throws(SimulatorFlagError)
        -> SimulatorSettings
    {
        var settings = base
        if let listen = flags["listen"] { settings.listen = listen }
        if let record = flags["record"] { settings.record = record }
        var tls = settings.tls ?? SimulatorSettings.TLS()
        if let value = flags["tls-dir"] { tls.directory = value }
        if let value = flags["tls-cert"] { tls.certificate = value }
        if let value = flags["tls-key"] { tls.key = value }
        if let value = flags["client-ca"] { tls.clientCA = value }
        settings.tls = tls

        for provider in SimulatedProviders.all {
            try lay(flags, over: provider, in: &settings)
        }

        var faults = settings.faults ?? .none
        if let value = try flags.fraction("error-rate") { faults.errorRate = value }
        if let value = flags["error-status"] {
            guard let status = Int(value), SimulatorFaults.errorStatuses.contains(status) else {
                throw SimulatorFlagError("--error-status: expected 429, 500 or 503, found '\(value)'")
            }
            faults.errorStatus = status
        }
        if let value = try flags.fraction("reset-rate") { faults.resetRate = value }
        if let value = try flags.fraction("drop-rate") { faults.dropRate = value }
        if let value = try flags.fraction("hang-rate") { faults.hangRate = value }
        if let value = flags.list("fault-services") { faults.services = value }
        if let value = flags.list("fault-tokens") { faults.tokens = value }
        if let value = try flags.duration("latency") { faults.latency = value }
        if let value = try flags.positive("goaway-after") { faults.goAwayAfterStreams = value }
        if let value = try flags.positive("max-streams") { faults.maxStreams = value }
        if let value = try flags.positive("rate-limit") {
            faults.rateLimit = SimulatorFaults.RateLimit(requests: value)
        }
        if let problem = faults.problem { throw SimulatorFlagError("faults: \(problem)") }
        settings.faults = faults
        return settings
    }

    /// Lays the provider's flags, when any is given, over its section (its default when the settings have none).
    private static func lay<Section: SimulatedProvider>(
        _ flags: SimulatorFlagValues, over provider: Section.Type, in settings: inout SimulatorSettings
    ) throws(SimulatorFlagError) {
        guard Section.flags.contains(where: flags.contains) else { return }
        var section = settings.section(Section.self) ?? Section.defaultSection
        try section.apply(flags)
        settings.setSection(section)
    }
}
