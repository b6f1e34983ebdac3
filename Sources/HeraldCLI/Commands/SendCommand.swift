import HeraldConfig
import HeraldCore
import HeraldProviders
import HeraldPipeline

/// `herald send`: delivers one notification without a broker and prints its
/// outcome as JSON — the credential smoke test.
public struct SendCommand: SimpleCommand {
    public let providers: [any SendProviderFactory]
    let clock: @Sendable () -> Timestamp

    public init(
        providers: [any SendProviderFactory] = SendCommand.standardProviders,
        clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.providers = providers
        self.clock = clock
    }

    public static let standardProviders: [any SendProviderFactory] = ProviderCatalog.registered.providers.map(
        SectionSendProvider.init)

    public let name = "send"
    public let summary = "Send one notification directly (no broker) and print its outcome"
    public var help: String {
        """
        Usage: herald send --app APP --provider \(providers.map(\.name).joined(separator: "|")) (\(Self.addresses.map { "--\($0.option.field) \($0.option.placeholder)" }.joined(separator: " | "))) [options]

        Builds an event from the options, delivers it with APP's credentials
        from the config, and prints the outcome JSON (as published to the
        results exchange). A transient failure is retried once. Exits 0 when
        delivered, 1 otherwise.

        Options:
          --config FILE          the config file (default: config.yaml, or $HERALD_CONFIG; no broker is used)
          --event FILE           send every device target of the event in FILE (JSON), one outcome line each
          --app APP              the app whose credentials to use
          --provider NAME        \(providers.map(\.name).joined(separator: ", "))
        \(Self.addressHelp)
          --title, --subtitle, --body TEXT
          --badge N              the badge number (0 clears it)
          --sound NAME           a sound file, or default
          --category NAME, --thread-id ID
          --push-type TYPE       alert, background, voip, liveactivity, ...
          --priority P           high, normal or low
          --ttl SECONDS          expiry relative to now
          --collapse-id ID
          --data JSON            custom data, a JSON object
          --apns-payload JSON    raw APNs payload merged last (e.g. {"aps":{"interruption-level":"time-sensitive"}})
          --content-available    wake the app in the background
          --mutable-content      let a notification service extension modify it
          --silent               send it without content (no text, sound, badge, data or
                                 --content-available); refused without this flag
          -h, --help             show this help
        """
    }

    static let stringOptions = ["title", "subtitle", "body", "sound", "category", "thread-id"]
    /// The device options of the registered providers: `--token`, `--fid`, `--subscription`.
    static let addresses = SendAddressOptions.all
    var argumentSyntax: ArgumentSyntax {
        ArgumentSyntax(
            options: ["config", "app", "provider", "event"] + Self.addresses.map(\.option.field) + Self.stringOptions
                + [
                    "badge", "push-type", "priority", "ttl", "collapse-id", "data", "apns-payload",
                ],
            flags: ["content-available", "mutable-content", "silent"],
            files: Set(["config", "event"] + Self.addresses.filter(\.option.readsJSONFile).map(\.option.field)))
    }

    /// The device options' help lines; one only some provider takes says which.
    static var addressHelp: String {
        let all = ProviderCatalog.registered.providers.count
        return addresses.map { option, providers in
            let only = providers.count == 1 && all > 1 ? " (\(providers[0]) only)" : ""
            let name = "--\(option.field) \(option.placeholder)"
            return "  " + name.padding(toLength: max(name.count + 1, 23), withPad: " ", startingAt: 0) + option.help
                + only
        }.joined(separator: "\n")
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let parsed: ParsedArguments
        let event: Event
        let factory: any SendProviderFactory
        do {
            parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            try parsed.refusePositionals()
            if let file = parsed.options["event"] {
                return await sendEvent(file: file, parsed: parsed, environment: environment, console: console)
            }
            for required in ["app", "provider"] where parsed.options[required] == nil {
                throw UsageError("--\(required) is required")
            }
            let devices = Self.addresses.map(\.option.field).filter { parsed.options[$0] != nil }
            if devices.isEmpty {
                let names = Self.addresses.map { "--" + $0.option.field }
                throw UsageError("\(names.dropLast().joined(separator: ", ")) or \(names.last ?? "") is required")
            }
            if devices.count > 1 {
                throw UsageError(
                    devices.map { "--" + $0 }.joined(separator: " and ") + " cannot be combined; give one device")
            }
            let providerName = parsed.options["provider"] ?? ""
            // Events' aliases work here too: `ios` is apns, `android` is fcm.
            let canonical = ProviderCatalog.registered.provider(named: providerName)?.rawValue ?? providerName
            guard let found = providers.first(where: { $0.name == canonical }) else {
                throw UsageError(
                    "unknown provider '\(providerName)'; expected \(EventError.list(providers.map(\.name)))"
                        + Suggestions.didYouMean(providerName, among: providers.map(\.name)))
            }
            factory = found
            event = try SendEventBuilder.event(
                from: parsed, id: "send-" + String(UInt64.random(in: 1...UInt64.max), radix: 16))
        } catch {
            return usageFailure(error, console: console)
        }
        if let invalid = event.invalidTargets.first {
            // A token or FID that can never work (or another refused target) gets the
            // outcome `herald run` would publish for it, and nothing is sent.
            let outcome = OutcomeBuilder.outcome(
                for: invalid, event: event, app: parsed.options["app"], attempt: 1, at: clock())
            console.out(outcome.jsonValue.jsonString)
            return ExitStatus.failure
        }
        if !event.hasContent, !parsed.flags.contains("silent") {
            return usageFailure(UsageError(Event.noContent), console: console)
        }
        guard
            let config = loadConfig(
                parsed.configFile(environment: environment), environment: environment, console: console,
                broker: false)
        else {
            return ExitStatus.failure
        }
        if let unknown = config.unknownApp(parsed.options["app"] ?? "") {
            return usageFailure(unknown, console: console)
        }
        guard let target = event.targets.first else { return ExitStatus.failure }
        let outcome: Outcome
        do {
            outcome = try await deliver(
                event, to: target, app: parsed.options["app"] ?? "", with: factory, config: config)
        } catch {
            console.err("herald send: \(ErrorText.forTerminal(error))")
            return ExitStatus.failure
        }
        console.out(outcome.jsonValue.jsonString)
        return outcome.status == .delivered ? ExitStatus.success : ExitStatus.failure
    }
}
