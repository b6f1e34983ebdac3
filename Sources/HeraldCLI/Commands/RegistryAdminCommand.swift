import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// `herald registry`: the device registry from a shell — migrate its schema,
/// put a device on channels or take it off, move it to a new token, list and
/// count — for operators and scripts. Changes go through the same checks
/// (`RegistryCommand`) and store calls as the registry commands `herald run`
/// consumes, so a command line and an AMQP message mean the same thing.
public struct RegistryAdminCommand: Command {
    private let clock: @Sendable () -> Timestamp

    public init(clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }) {
        self.clock = clock
    }

    public let name = "registry"
    public let summary = "Manage the device registry: migrate, add, remove, replace, list, count"
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
          remove --app A --provider P (--token T | --fid F) --channel C [--channel C2 ...]
          remove-device --app A --provider P (--token T | --fid F)     off every channel of its app
          replace --app A --provider P (--token T | --fid F) --new-token N   move its channels to a new token
          list-channels --app A --provider P (--token T | --fid F)
          list-devices --app A --channel C [--provider P] [--limit N] [--after CURSOR]
          count --app A [--channel C]                   devices on a channel, or the app's registrations

        Output is an aligned table, or with --json one JSON object per line:
        per channel or per device for the lists, the result (as published on
        the results exchange) for a change. list-devices shows --limit devices
        (default \(Self.defaultPageSize)) and, when there are more, prints the
        --after CURSOR of the next page on standard error. Errors go to
        standard error, naming the option, and exit 1.

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

        /// The options it takes besides `--config`.
        var options: Set<String> {
            let device: Set<String> = ["app", "provider", "token", "fid"]
            switch self {
            case .migrate: return []
            case .add: return device.union(["channel", "environment", "topic"])
            case .remove: return device.union(["channel"])
            case .removeDevice, .listChannels: return device
            case .replace: return device.union(["new-token"])
            case .listDevices: return ["app", "channel", "provider", "limit", "after"]
            case .count: return ["app", "channel"]
            }
        }

        /// The registry command it runs, for those that change the registry.
        var kind: RegistryCommand.Kind? {
            switch self {
            case .add: .register
            case .remove: .unregister
            case .removeDevice: .unregisterDevice
            case .replace: .replaceToken
            case .migrate, .listChannels, .listDevices, .count: nil
            }
        }
    }

    static let defaultPageSize = 100

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let subcommand: Subcommand
        let parsed: ParsedArguments
        do {
            guard let first = arguments.first else { throw UsageError("give a subcommand") }
            if first == "-h" || first == "--help" { console.out(help); return ExitStatus.success }
            guard let named = Subcommand(rawValue: first) else {
                throw UsageError("unknown subcommand '\(first)'" + Suggestions.hint(for: first, among: Subcommand.allCases.map(\.rawValue)))
            }
            subcommand = named
            parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), options: subcommand.options.union(["config"]),
                                               flags: ["json"], repeatable: ["channel"])
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        } catch {
            console.err("herald registry: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        let prefix = "herald registry \(subcommand.rawValue)"
        guard let config = loadConfig(parsed.configFile(environment: environment), environment: environment, console: console) else {
            return ExitStatus.failure
        }
        let store: any RegistryStore
        do {
            guard let configured = try config.registryStore() else {
                console.err("\(prefix): \(config.file) has no registry: section; add one to use the device registry "
                            + "(docs/configuration.md, \"registry\")")
                return ExitStatus.failure
            }
            store = configured
        } catch {
            console.err("\(prefix): \(error)")
            return ExitStatus.failure
        }
        defer { store.close() }
        let session = Session(config: config, store: store, parsed: parsed, json: parsed.flags.contains("json"), console: console,
                              clock: clock)
        do {
            try await session.run(subcommand)
            return ExitStatus.success
        } catch {
            console.err("\(prefix): \(error)")
            return ExitStatus.failure
        }
    }
}

/// Why a `herald registry` subcommand failed, as it is printed.
struct RegistryAdminFailure: Error, CustomStringConvertible {
    let description: String

    /// A command's refusal, its field named as the option it came from.
    init(_ error: RegistryCommandError) {
        description = "\(Self.option(for: error.field)): \(error.message)"
    }

    /// A store's failure; a missing schema says how to create it.
    init(_ error: RegistryError, config: LoadedConfig) {
        description = error.kind == .migration
            ? "\(error) (run 'herald registry migrate --config \(config.file)' first)" : "\(error)"
    }

    init(_ description: String) { self.description = description }

    /// The option a command's field comes from: `channels[1]` is the second `--channel`.
    static func option(for field: String) -> String {
        if field.hasPrefix("channels["), let index = Int(field.dropFirst("channels[".count).dropLast()) {
            return "--channel #\(index + 1)"
        }
        switch field {
        case "channels", "channel": return "--channel"
        case "new_token": return "--new-token"
        case "command": return "--token/--fid"
        default: return "--" + field
        }
    }
}

/// One run of a subcommand: its arguments, the store, where to print.
private struct Session {
    let config: LoadedConfig
    let store: any RegistryStore
    let parsed: ParsedArguments
    let json: Bool
    let console: any Console
    let clock: @Sendable () -> Timestamp

    var rules: RegistryCommand.Rules { config.registryRules }

    func run(_ subcommand: RegistryAdminCommand.Subcommand) async throws(RegistryAdminFailure) {
        if let kind = subcommand.kind { return try await change(kind) }
        switch subcommand {
        case .migrate: try await migrate()
        case .listChannels: try await listChannels()
        case .listDevices: try await listDevices()
        case .count: try await count()
        case .add, .remove, .removeDevice, .replace: break
        }
    }

    /// The command the options describe, checked as an AMQP command is.
    private func change(_ kind: RegistryCommand.Kind) async throws(RegistryAdminFailure) {
        let command: RegistryCommand
        do {
            command = try RegistryCommand.decode(json: .object(body()), kind: kind, fallbackID: nil, rules: rules)
        } catch {
            throw RegistryAdminFailure(error)
        }
        let result: RegistryResult
        do {
            result = try await command.apply(to: store, at: clock())
        } catch where error.kind == .limitExceeded || error.kind == .invalidInput {
            throw RegistryAdminFailure(command.refusal(error))
        } catch {
            throw RegistryAdminFailure(error, config: config)
        }
        if json { return console.out(result.jsonValue.jsonString) }
        var table: Table
        switch command.action {
        case .register:
            table = Table("CHANNEL", "CHANGE")
            for entry in result.channels { table.add(entry.channel, entry.change?.name ?? "-") }
        case .unregister, .unregisterDevice:
            table = Table("CHANGE", "REMOVED")
            let removed = if case .removed(let count)? = result.change { count } else { 0 }
            table.add(result.change?.name ?? "-", String(removed))
        case .replaceToken(let new):
            table = Table("CHANGE", "NEW_TOKEN")
            table.add(result.change?.name ?? "-", new.value)
        }
        console.out(table.text)
    }

    /// The body of the command the options describe, in the AMQP command's field names.
    private func body() -> JSONObject {
        var object = JSONObject()
        for (option, field) in [("app", "app"), ("provider", "provider"), ("token", "token"), ("fid", "fid"),
                                ("environment", "environment"), ("topic", "topic"), ("new-token", "new_token")] {
            if let value = parsed.options[option] { object[field] = .string(value) }
        }
        if let channels = parsed.repeated["channel"] { object["channels"] = .array(channels.map { .string($0) }) }
        return object
    }

    private func migrate() async throws(RegistryAdminFailure) {
        let applied: [Int]
        do { applied = try await store.migrate() } catch { throw RegistryAdminFailure(error, config: config) }
        if json { return console.out(JSONValue.object(["applied": .array(applied.map { .number(JSONNumber($0)) })]).jsonString) }
        console.out(applied.isEmpty ? "up to date" : applied.map { "applied version \($0)" }.joined(separator: "\n"))
    }

    private func listChannels() async throws(RegistryAdminFailure) {
        let device: DeviceKey
        do { device = try rules.device(in: body()) } catch { throw RegistryAdminFailure(error) }
        let channels: [String]
        do { channels = try await store.channels(of: device) } catch { throw RegistryAdminFailure(error, config: config) }
        if json { return channels.forEach { console.out(JSONValue.object(["channel": .string($0)]).jsonString) } }
        var table = Table("CHANNEL")
        for channel in channels { table.add(channel) }
        console.out(table.text)
    }

    private func listDevices() async throws(RegistryAdminFailure) {
        let (app, channel) = try appAndChannel()
        guard let channel else { throw RegistryAdminFailure("--channel: missing; give the channel to list") }
        var providers: Set<Provider>?
        if let name = parsed.options["provider"] {
            do {
                providers = try FieldReader(object: ["provider": .string(name)], path: "").provider("provider", among: rules.providers).map { [$0] }
            } catch {
                throw RegistryAdminFailure(error)
            }
        }
        var limit = RegistryAdminCommand.defaultPageSize
        if let text = parsed.options["limit"] {
            guard let number = Int(text), (1...rules.limits.maxPageSize).contains(number) else {
                throw RegistryAdminFailure("--limit: expected a whole number from 1 to \(rules.limits.maxPageSize), found '\(text.truncatedForMessage)'")
            }
            limit = number
        }
        var cursor: RegistryCursor?
        if let text = parsed.options["after"] {
            guard let after = RegistryCursor(text) else {
                throw RegistryAdminFailure("--after: '\(text.truncatedForMessage)' is not a cursor; give the one a previous page printed")
            }
            cursor = after
        }
        let page: RegistryPage
        do {
            page = try await store.devices(app: app, channel: channel, providers: providers, after: cursor, limit: limit)
        } catch {
            throw RegistryAdminFailure(error, config: config)
        }
        if json {
            for registration in page.registrations { console.out(Self.json(registration).jsonString) }
        } else {
            var table = Table("PROVIDER", "KIND", "ADDRESS", "ENVIRONMENT", "TOPIC", "CREATED_AT", "UPDATED_AT")
            for r in page.registrations {
                table.add(r.device.provider.rawValue, r.device.address.field, r.device.address.value, r.environment ?? "-", r.topic ?? "-",
                          r.createdAt.rfc3339(fractionDigits: 3), r.updatedAt.rfc3339(fractionDigits: 3))
            }
            console.out(table.text)
        }
        if let next = page.next { console.err("more devices: --after \(next)") }
    }

    private func count() async throws(RegistryAdminFailure) {
        let (app, channel) = try appAndChannel()
        let count: Int
        do { count = try await store.count(app: app, channel: channel) } catch { throw RegistryAdminFailure(error, config: config) }
        if json {
            var object: JSONObject = ["app": .string(app)]
            if let channel { object["channel"] = .string(channel) }
            object[channel == nil ? "registrations" : "devices"] = .number(JSONNumber(count))
            return console.out(JSONValue.object(object).jsonString)
        }
        var table = Table("APP", "CHANNEL", channel == nil ? "REGISTRATIONS" : "DEVICES")
        table.add(app, channel ?? "(all)", String(count))
        console.out(table.text)
    }

    /// `--app`, one of the config's, and `--channel`, a channel name, when given.
    private func appAndChannel() throws(RegistryAdminFailure) -> (String, String?) {
        guard let app = parsed.options["app"] else { throw RegistryAdminFailure("--app: missing; give one of \(EventError.list(rules.apps.keys.sorted()))") }
        do {
            try rules.app(app)
            return (app, try parsed.options["channel"].map { name throws(RegistryCommandError) in try rules.channel(name, field: "channel") })
        } catch {
            throw RegistryAdminFailure(error)
        }
    }

    /// One registration as a `--json` line of list-devices.
    static func json(_ registration: Registration) -> JSONValue {
        var object: JSONObject = [
            "app": .string(registration.device.app), "channel": .string(registration.channel),
            "provider": .string(registration.device.provider.rawValue),
        ]
        object[registration.device.address.field] = .string(registration.device.address.value)
        if let environment = registration.environment { object["environment"] = .string(environment) }
        if let topic = registration.topic { object["topic"] = .string(topic) }
        object["created_at"] = .string(registration.createdAt.rfc3339(fractionDigits: 3))
        object["updated_at"] = .string(registration.updatedAt.rfc3339(fractionDigits: 3))
        return .object(object)
    }
}
