import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// `herald registry`: the device registry from a shell — migrate its schema,
/// put a device on channels or take it off, move it to a new token, list and
/// count — for operators and scripts. Changes go through the same checks
/// (`RegistryCommand`) and store calls as the registry commands `herald run`
/// consumes, so a command line and an AMQP message mean the same thing.
public struct RegistryAdminCommand: SubcommandGroup {
    private let clock: @Sendable () -> Timestamp

    public init(clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }) {
        self.clock = clock
    }

    public let name = "registry"
    public let summary = "Manage the device registry: migrate, add, remove, replace, list, count, stale, import, export"
    public var help: String {
        """
        Usage: herald registry <subcommand> --config FILE [options] [--json]

        Reads and changes the registry of the config's registry: section
        (docs/registry.md), with the checks and semantics of the registry
        commands herald run consumes: an app of the config with credentials
        for the provider, a device token (or FID on FCM), valid channel names.

        Subcommands:
          migrate                                       bring the schema up to date; prints the versions applied
          add --app A --provider P (--token T | --fid F) --channel C [--channel C2 ...] [--environment E] [--topic T]
              [--timezone Z] [--locale L] [--attribute KEY=VALUE ...]   the device's attributes ("" clears one)
          remove --app A --provider P (--token T | --fid F) --channel C [--channel C2 ...]
          remove-device --app A --provider P (--token T | --fid F)     off every channel of its app
          replace --app A --provider P (--token T | --fid F) --new-token N   move its channels to a new token
          list-channels --app A --provider P (--token T | --fid F)
          list-devices --app A --channel C [--provider P] [--limit N] [--after CURSOR]
          count --app A [--channel C]                   devices on a channel, or the app's registrations
          stale --older-than D [--app A] [--limit N]    devices not registered for D (90d, 12h), longest unseen first
          import FILE|- [--batch-size N]                register the devices of JSON lines (register commands)
          export [--app A [--channel C]]                write devices as JSON lines import reads back

        Output is an aligned table, or with --json one JSON object per line:
        per channel or per device for the lists, the result (as published on
        the results exchange) for a change. list-devices shows --limit devices
        (default \(Self.defaultPageSize)) and, when there are more, prints the
        --after CURSOR of the next page on standard error. Errors go to
        standard error, naming the option, and exit 1.

        import reads one register command body per line ({"app": ..., "provider":
        ..., "token": ..., "channels": [...]}), checked as the AMQP command is, and
        registers them --batch-size (default \(Self.defaultBatchSize)) per
        transaction. A refused line is printed as FILE:LINE: reason and skipped;
        the summary counts lines imported (a membership created), updated,
        unchanged and refused, and the exit status is 1 when any was refused.
        Registering is idempotent: an import stopped halfway is finished by
        running it again. export writes every device with its channels, one
        line per device, in the same format (docs/registry.md).

        Options:
          --config FILE   the config file (default: config.yaml, or $HERALD_CONFIG)
          --json          JSON lines instead of a table
          -h, --help      show this help
        """
    }

    /// The subcommands, by name.
    enum Subcommand: String, CaseIterable {
        case migrate, add, remove
        case removeDevice = "remove-device"
        case replace
        case listChannels = "list-channels"
        case listDevices = "list-devices"
        case count
        case stale
        case importFile = "import"
        case export

        /// The options it takes besides `--config`.
        var options: [String] {
            let device = ["app", "provider", "token", "fid"]
            switch self {
            case .migrate: return []
            case .add: return device + ["channel", "environment", "topic", "timezone", "locale", "attribute"]
            case .remove: return device + ["channel"]
            case .removeDevice, .listChannels: return device
            case .replace: return device + ["new-token"]
            case .listDevices: return ["app", "channel", "provider", "limit", "after"]
            case .count: return ["app", "channel"]
            case .stale: return ["older-than", "app", "limit"]
            case .importFile: return ["batch-size"]
            case .export: return ["app", "channel"]
            }
        }

        /// The registry command it runs, for those that change the registry.
        var kind: RegistryCommand.Kind? {
            switch self {
            case .add: .register
            case .remove: .unregister
            case .removeDevice: .unregisterDevice
            case .replace: .replaceToken
            case .migrate, .listChannels, .listDevices, .count, .stale, .importFile, .export: nil
            }
        }
    }

    static let defaultPageSize = 100
    /// Registrations per transaction of `import` (`--batch-size`): the default, and what may be asked.
    /// On PostgreSQL a batch holds one advisory lock per device until it
    /// commits: 5000 stays within the lock table of a default server
    /// (`max_locks_per_transaction` 64 × `max_connections` 100).
    static let defaultBatchSize = 2000
    static let batchSizes = 1...5000

    let missingSubcommand = "give a subcommand"

    func syntax(for subcommand: Subcommand) -> ArgumentSyntax {
        ArgumentSyntax(
            options: ["config"] + subcommand.options, flags: ["json"],
            repeatable: Set(["channel", "attribute"].filter(subcommand.options.contains)), files: ["config"],
            fileArguments: subcommand == .importFile)
    }

    func read(_ parsed: ParsedArguments, for subcommand: Subcommand) throws(UsageError) -> ParsedArguments {
        if subcommand == .importFile {
            guard parsed.positionals.count == 1 else {
                throw UsageError("give exactly one file of JSON lines, or - for standard input")
            }
            _ = try parsed.integer("batch-size", in: Self.batchSizes)
        } else {
            try parsed.refusePositionals()
        }
        return parsed
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        await runSubcommand(arguments, environment: environment, console: console)
    }

    func run(
        _ subcommand: Subcommand, _ parsed: ParsedArguments, environment: [String: String], console: any Console
    ) async -> Int32 {
        let prefix = prefix(subcommand)
        guard
            let config = loadConfig(
                parsed.configFile(environment: environment), environment: environment, console: console)
        else {
            return ExitStatus.failure
        }
        let store: any RegistryStore
        do {
            guard let configured = try config.registryStore() else {
                console.err(
                    "\(prefix): \(config.file) has no registry: section; add one to use the device registry "
                        + "(docs/configuration.md, \"registry\")")
                return ExitStatus.failure
            }
            store = configured
        } catch {
            console.err("\(prefix): \(ErrorText.forTerminal(error))")
            return ExitStatus.failure
        }
        defer { store.close() }
        let session = RegistryAdminSession(
            config: config, store: store, parsed: parsed, json: parsed.flags.contains("json"), console: console,
            clock: clock)
        do {
            try await session.run(subcommand)
            return ExitStatus.success
        } catch {
            console.err("\(prefix): \(ErrorText.forTerminal(error))")
            return ExitStatus.failure
        }
    }
}
