import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// One run of a subcommand: its arguments, the store, where to print.
struct RegistryAdminSession {
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
        case .stale: try await stale()
        case .importFile:
            let batchSize = Int(parsed.options["batch-size"] ?? "") ?? RegistryAdminCommand.defaultBatchSize
            try await importRegistrations(from: parsed.positionals.first ?? "-", batchSize: batchSize)
        case .export: try await export()
        case .add, .remove, .removeDevice, .replace: break
        }
    }

    /// `migrate`: brings the schema up to date and prints the versions applied.
    func migrate() async throws(RegistryAdminFailure) {
        let applied: [Int]
        do { applied = try await store.migrate() } catch { throw RegistryAdminFailure(error, config: config) }
        if json {
            return console.out(
                JSONValue.object(["applied": .array(applied.map { .number(JSONNumber($0)) })]).jsonString)
        }
        console.out(applied.isEmpty ? "up to date" : applied.map { "applied version \($0)" }.joined(separator: "\n"))
    }

    /// The body of the command the options describe, in the AMQP command's field names.
    func body() -> JSONObject {
        var object = JSONObject()
        for (option, field) in [
            ("app", "app"), ("provider", "provider"), ("token", "token"), ("fid", "fid"),
            ("environment", "environment"), ("topic", "topic"), ("new-token", "new_token"),
            ("timezone", "timezone"), ("locale", "locale"),
        ] {
            if let value = parsed.options[option] { object[field] = .string(value) }
        }
        if let channels = parsed.repeated["channel"] { object["channels"] = .array(channels.map { .string($0) }) }
        if let pairs = parsed.repeated["attribute"] {
            // KEY=VALUE, split at the first "=": the key's rule has no "=", a value may.
            object["attributes"] = .object(
                JSONObject(
                    pairs.map { pair in
                        let key = pair.prefix { $0 != "=" }
                        return (String(key), .string(String(pair.dropFirst(key.count + 1))))
                    }))
        }
        return object
    }

    /// `--app`, one of the config's, and `--channel`, a channel name, when given.
    func appAndChannel() throws(RegistryAdminFailure) -> (String, String?) {
        guard let app = parsed.options["app"] else {
            throw RegistryAdminFailure("--app: missing; give one of \(EventError.list(rules.apps.keys.sorted()))")
        }
        do {
            try rules.app(app)
            return (
                app,
                try parsed.options["channel"].map { name throws(RegistryCommandError) in
                    try rules.channel(name, field: "channel")
                }
            )
        } catch {
            throw RegistryAdminFailure(error)
        }
    }
}
