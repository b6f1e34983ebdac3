import HeraldConfig
import HeraldCore
import HeraldPipeline
import HeraldProviders
import HeraldSystem

extension SendCommand {
    /// The options `--event FILE` replaces: the event says who and what.
    static var eventFileExcludes: [String] {
        ["provider"] + addresses.map(\.option.field) + stringOptions + [
            "badge", "push-type", "priority", "ttl", "collapse-id", "data", "apns-payload",
        ]
    }

    /// `herald send --event FILE`: every device target of the event in FILE,
    /// sent directly with its app's credentials (`--app`, else the event's
    /// `app`), one outcome line each. Exits 0 when every target was delivered.
    func sendEvent(
        file: String, parsed: ParsedArguments, environment: [String: String], console: any Console
    ) async -> Int32 {
        let event: Event
        let app: String
        do {
            let given =
                Self.eventFileExcludes.filter { parsed.options[$0] != nil }
                + ["content-available", "mutable-content"].filter { parsed.flags.contains($0) }
            if !given.isEmpty {
                throw UsageError(
                    "--event cannot be combined with " + given.map { "--" + $0 }.joined(separator: ", ")
                        + "; the event file gives its targets and notification")
            }
            event = try Self.readEvent(file)
            guard let named = parsed.options["app"] ?? event.app else {
                throw UsageError("--event: \(file) names no app; give --app APP")
            }
            app = named
            if !event.channels.isEmpty {
                throw UsageError(
                    "--event: \(file) has channel targets; herald send delivers to devices only (herald publish sends the event through herald run and its registry)"
                )
            }
            if !event.hasContent, !parsed.flags.contains("silent") { throw UsageError(Event.noContent) }
        } catch {
            return usageFailure(error, console: console)
        }
        guard
            let config = loadConfig(
                parsed.configFile(environment: environment), environment: environment, console: console,
                broker: false)
        else {
            return ExitStatus.failure
        }
        if let unknown = config.unknownApp(app) { return usageFailure(unknown, console: console) }
        var allDelivered = event.invalidTargets.isEmpty
        for invalid in event.invalidTargets {
            let outcome = OutcomeBuilder.outcome(for: invalid, event: event, app: app, attempt: 1, at: clock())
            console.out(outcome.jsonValue.jsonString)
        }
        for target in event.targets {
            guard let factory = providers.first(where: { $0.name == target.provider.rawValue }) else {
                console.err("herald send: no \(target.provider) provider to send with")
                allDelivered = false
                continue
            }
            do {
                let outcome = try await deliver(event, to: target, app: app, with: factory, config: config)
                console.out(outcome.jsonValue.jsonString)
                allDelivered = allDelivered && outcome.status == .delivered
            } catch {
                console.err("herald send: \(ErrorText.forTerminal(error))")
                allDelivered = false
            }
        }
        return allDelivered ? ExitStatus.success : ExitStatus.failure
    }

    /// The event in `file`, decoded and validated as one from the broker.
    static func readEvent(_ file: String) throws(UsageError) -> Event {
        let contents: BoundedFile
        do {
            contents = try BoundedFile(path: file, limit: .config)
        } catch {
            throw UsageError("--event: the file \(error.problem)")
        }
        do {
            return try Event.decode(
                contents.bytes, fallbackID: "send-" + String(UInt64.random(in: 1...UInt64.max), radix: 16),
                providers: .registered)
        } catch {
            throw UsageError("--event: \(file) is not a valid event: \(error)")
        }
    }

    /// Sends `event` to `target` with `app`'s credentials from `config` and
    /// returns the outcome `herald run` would publish. A transient failure is
    /// tried once more, as the providers' own SDKs do.
    func deliver(
        _ event: Event, to target: Target, app: String, with factory: any SendProviderFactory, config: LoadedConfig
    ) async throws -> Outcome {
        let logger = Logger.commandLine(label: "herald.send")
        let report = try await factory.withProvider(app: app, for: target, config: config, logger: logger) {
            provider in
            let sent: SentNotification
            do throws(DeliveryRejection) {
                sent = try await provider.prepareAndSend(event, to: target, attempt: 1) { failure, attempt in
                    guard attempt == 1 else { return nil }
                    try? await Task.sleep(for: min(failure.retryAfter ?? .milliseconds(200), .seconds(5)))
                    return attempt + 1
                }
            } catch {
                return DeliveryReport(.rejected(error))
            }
            switch sent.answer {
            case .success(let result): return DeliveryReport(.result(result), attempt: sent.attempt)
            case .failure(let failure): return DeliveryReport(.failure(failure), attempt: sent.attempt)
            }
        }
        let send = EventPlan.Send(target: target, event: event, app: app)
        return OutcomeBuilder.outcome(for: report.answer, of: send, attempt: report.attempt, at: clock())
    }
}
