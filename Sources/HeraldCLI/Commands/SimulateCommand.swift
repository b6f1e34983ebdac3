import Dispatch
import Glibc
import HeraldConfig
import HeraldCore
import HeraldHTTP2Server
import HeraldSimulator

/// `herald simulate`: runs the local APNs, FCM and Web Push simulator (HTTP/2 over TLS) until
/// SIGINT or SIGTERM — the target of the repository's config, of the tests,
/// and of users' acceptance tests.
public struct SimulateCommand: SimpleCommand {
    public init() {}

    public let name = "simulate"
    public let summary = "Run the local APNs, FCM and Web Push simulator (HTTP/2 + TLS)"
    public var help: String {
        """
        Usage: herald simulate [--config sim.yaml] [options]

        Serves POST /3/device/<token> like APNs: verifies provider tokens (ES256)
        or client certificates, checks headers and payloads, answers with Apple's
        status codes and reasons. With --fcm-service-account it also serves FCM:
        POST /token (Google OAuth, RS256 assertions) and
        POST /v1/projects/<id>/messages:send. It is a Web Push push service too:
        POST /push/<id> to subscriptions it issues (--webpush-subscriptions, or
        POST /_herald/webpush/subscriptions; at most \(WebPushSimulatorService.defaultMaxSubscriptions) in all, deleted
        ones included), VAPID checked, bodies decrypted and recorded as
        plaintext. Every accepted notification and every refused request is
        recorded; tests read the record, kill tokens and change faults while it
        runs through the admin API under /_herald/ (no authentication: keep
        --listen on loopback; any other address is warned about at start).
        Without --tls-cert it uses (or generates) a CA and server certificate
        in --tls-dir; point Herald's ca_file at the printed CA file.
        docs/apns.md, docs/fcm.md, docs/webpush.md and docs/simulator-admin.md
        describe every check, setting and endpoint.

        Options:
          --config FILE               simulator settings (YAML); flags override it
          --listen HOST:PORT          address to listen on (default 127.0.0.1:2197)
          --record FILE               append each accepted notification as a JSON line
        \(Self.providerHelp)
          --tls-dir DIR               where the generated CA and certificate live (default .herald/dev)
          --tls-cert FILE, --tls-key FILE   use this server certificate instead
          --client-ca FILE            accept client certificates from this CA (certificate auth)
          --error-rate F              answer this fraction of requests with --error-status
          --error-status N            500, 503 or 429 (default 500), in each provider's error shape
          --reset-rate F              reset this fraction of requests' streams (RST_STREAM)
          --drop-rate F               close this fraction of requests' connections with a TCP reset
          --hang-rate F               never answer this fraction of requests
          --fault-services LIST       where faults apply: \(SimulatorFaults.serviceNames.joined(separator: ", ")) (default \(SimulatorFaults.defaultServices.joined(separator: ",")))
          --fault-tokens LIST         apply faults only to requests to these tokens (or FCM topics)
          --latency D                 delay every answer (e.g. 20ms)
          --goaway-after N            send GOAWAY after N streams on each connection
          --max-streams N             advertise N concurrent streams per connection (default 1000)
          --rate-limit N              at most N requests per second overall (429)
          -h, --help                  show this help
        """
    }

    /// The registered providers' flags, as help lines, in the registration order.
    static var providerHelp: String {
        SimulatedProviders.all.flatMap { $0.flags.flatMap(\.helpLines) }.joined(separator: "\n")
    }

    var argumentSyntax: ArgumentSyntax {
        ArgumentSyntax(options: SimulateOptions.options, files: SimulateOptions.files)
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let settings: SimulatorSettings
        do {
            let parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            try parsed.refusePositionals()
            var base = SimulatorSettings()
            if let file = parsed.options["config"] {
                do { base = try SimulatorSettings.load(file: file, environment: environment) } catch {
                    console.err(error.description)
                    return ExitStatus.failure
                }
            }
            settings = try SimulateOptions.apply(parsed.options, to: base)
        } catch {
            return usageFailure(error, console: console)
        }
        do {
            try await serve(settings, console: console)
            return ExitStatus.success
        } catch {
            console.err("herald simulate: \(error)")
            return ExitStatus.failure
        }
    }

    private func serve(_ settings: SimulatorSettings, console: any Console) async throws {
        let logger = Logger(label: "herald")
        let (host, port) = try settings.listenAddress()
        if let warning = SimulatorSettings.exposureWarning(listenHost: host) { console.err(warning) }
        let (tls, caFile) = try settings.serverTLS(defaultDirectory: ".herald/dev")
        // The admin API lists the in-memory record (`--record` writes every
        // delivered notification to a file): keep the newest 10 000 of each kind,
        // enough for a suite's case, so a long benchmark does not grow the
        // simulator by a kilobyte or two per notification.
        let recorder = NotificationRecorder(capacity: 10_000, jsonLinesPath: settings.record)
        let providers = try settings.makeProviders(recorder: recorder, now: Timestamp.now())
        let services = providers.flatMap(\.services)
        let faults = settings.faults ?? .none
        let injector = FaultInjector(faults: faults)
        let admin = SimulatorAdminService(recorder: recorder, faults: injector, services: services)
        let simulator = Simulator(services: [admin] + services, recorder: recorder, faults: injector, logger: logger)
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(
                host: host, port: port, tls: tls, maxConcurrentStreams: simulator.maxConcurrentStreams,
                goAwayAfterStreams: faults.goAwayAfterStreams),
            handler: simulator, logger: logger)
        console.out("herald simulate: listening on https://\(host):\(server.port)")
        if let caFile { console.out("  CA certificate (give it to clients as ca_file): \(caFile)") }
        console.out(
            "  admin API: https://\(host):\(server.port)\(SimulatorAdminService.prefix)/ (docs/simulator-admin.md)")
        let origin = try settings.origin(port: server.port)
        for provider in providers {
            try provider.started(origin: origin, say: { console.out($0) })
        }
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { server.shutdown() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        try await server.run()
    }
}
