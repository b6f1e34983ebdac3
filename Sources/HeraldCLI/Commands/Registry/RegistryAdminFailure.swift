import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// Why a `herald registry` subcommand failed, as it is printed.
struct RegistryAdminFailure: Error, CustomStringConvertible {
    let description: String

    /// A command's refusal, its field named as the option it came from.
    init(_ error: RegistryCommandError) {
        description = "\(Self.option(for: error.field)): \(error.message)"
    }

    /// A store's failure; a missing schema says how to create it.
    init(_ error: RegistryError, config: LoadedConfig) {
        description =
            error.kind == .migration
            ? "\(error) (run 'herald registry migrate --config \(config.file)' first)" : "\(error)"
    }

    init(_ description: String) { self.description = description }

    /// The option a command's field comes from: `channels[1]` is the second `--channel`.
    static func option(for field: String) -> String {
        if field.hasPrefix("channels["), let index = Int(field.dropFirst("channels[".count).dropLast()) {
            return "--channel #\(index + 1)"
        }
        if field.hasPrefix("attributes.") { return "--attribute " + field.dropFirst("attributes.".count) }
        switch field {
        case "channels", "channel": return "--channel"
        case "new_token": return "--new-token"
        case "command": return "--token/--fid"
        case "attributes": return "--attribute"
        default: return "--" + field
        }
    }
}
