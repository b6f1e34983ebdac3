import Foundation
import HeraldConfig
import HeraldCore
import HeraldService

/// `herald check`: validates a config without starting anything, so a typo is
/// found at deploy time, not at the first notification.
public struct CheckCommand: SimpleCommand {
    public init() {}

    public let name = "check"
    public let summary = "Validate a config file and the key files it names"
    public var help: String {
        """
        Usage: herald check [--config FILE] [--online]

        Parses and validates FILE: YAML syntax, ${VAR} expansion, every key and
        type, the AMQP addresses (parsed as herald run connects to them),
        references between sections (routes naming apps), exactly one
        credential per provider, and that every credential is usable: key
        files within their size limits, an APNs key that is EC P-256 and
        signs, a certificate that opens with its password, a service account
        whose RSA key signs.
        Prints a summary and exits 0, or prints every problem, sorted by
        position, as file:line:column: key.path: message and exits 1.

        With --online it also proves each app's credentials, and nothing
        reaches a device: for APNs one request to an all-zero device token
        (Apple answers BadDeviceToken when the key or certificate is accepted,
        403 when it is not); for FCM the OAuth exchange, then one validate_only
        message to the project, which FCM checks and does not deliver, so a
        misspelt project_id, or one the service account may not send to,
        fails here and not at the first send.

        Options:
          --config FILE   the config file (default: config.yaml, or $HERALD_CONFIG)
          --online        also check the credentials against the endpoints
          -h, --help      show this help
        """
    }

    var argumentSyntax: ArgumentSyntax {
        ArgumentSyntax(options: ["config"], flags: ["online"], files: ["config"])
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let file: String
        var online = false
        do {
            let parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            try parsed.refusePositionals()
            file = parsed.configFile(environment: environment)
            online = parsed.flags.contains("online")
        } catch {
            return usageFailure(error, console: console)
        }
        // loadConfig has parsed the AMQP addresses already and reported any it refuses.
        guard let loaded = loadConfig(file, environment: environment, console: console),
            let broker = try? loaded.amqpConfiguration()
        else { return ExitStatus.failure }
        // The credentials are loaded and proven as `herald run` loads them.
        let providers = ProviderSet.make(
            config: loaded, logger: Logger.commandLine(label: "herald.check", level: .critical))
        guard providers.unavailable.isEmpty else {
            for (key, reason) in ProviderSet.inOrder(providers.unavailable) {
                console.err("\(loaded.file): \(key.configPath): \(reason)")
            }
            return ExitStatus.failure
        }
        console.out(ConfigSummary(loaded, broker: broker).text)
        guard online else { return ExitStatus.success }
        let results = await CredentialProbe.run(
            config: loaded, logger: Logger.commandLine(label: "herald.check", level: .critical))
        for result in results { console.out("  online: \(result)") }
        return results.allSatisfy(\.ok) ? ExitStatus.success : ExitStatus.failure
    }
}
