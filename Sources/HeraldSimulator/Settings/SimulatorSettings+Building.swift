import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldYAML

extension SimulatorSettings {
    /// Reads a simulator YAML file (`${VAR}` expanded; errors carry file, line and column).
    public static func load(file: String, environment: [String: String]) throws(YAMLError) -> SimulatorSettings {
        try YAMLDocument(contentsOfFile: file, environment: environment).decode(SimulatorSettings.self)
    }

    /// Every registered provider's services, built from its section (its
    /// default where the settings have none), recording in `recorder`, in the
    /// registration order.
    public func makeProviders(recorder: NotificationRecorder, now: Timestamp) throws(SimulatorSetupError)
        -> [SimulatedProviderServices]
    {
        var built: [SimulatedProviderServices] = []
        for section in providerSections {
            built.append(
                SimulatedProviderServices(
                    section: section, services: try section.makeServices(recorder: recorder, now: now)))
        }
        return built
    }

    /// The listening address: `host:port` (default `127.0.0.1:2197`).
    public func listenAddress() throws(SimulatorSetupError) -> (host: String, port: Int) {
        let text = listen ?? "127.0.0.1:2197"
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw SimulatorSetupError("listen: expected host:port such as 127.0.0.1:2197, found \"\(text)\"") }
        return (String(text[..<colon]), port)
    }

    /// The warning `herald simulate` prints at start when `host` is not a
    /// loopback address (a wildcard, an interface's address, a name other
    /// than localhost): the admin API has no authentication. Nil on loopback.
    public static func exposureWarning(listenHost host: String) -> String? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        let loopback =
            bare == "localhost" || bare == "::1"
            || (octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil })
        guard !loopback else { return nil }
        return "warning: listening on '\(host)', not a loopback address: the admin API under /_herald/ has no "
            + "authentication, so whoever reaches this port can read every recorded notification, kill tokens, "
            + "issue subscriptions and inject faults; keep --listen on 127.0.0.1 or ::1 unless the network is a test's own"
    }

    /// The simulator's origin once the server listens on `port`:
    /// `https://<listen host>:<port>`, with 127.0.0.1 for a wildcard host
    /// (the generated certificate names 127.0.0.1 and localhost) and an
    /// IPv6 address in brackets. Providers that hand out URLs (Web Push
    /// subscriptions) give it.
    public func origin(port: Int) throws(SimulatorSetupError) -> String {
        var host = try listenAddress().host
        if ["", "0.0.0.0", "::", "[::]"].contains(host) { host = "127.0.0.1" }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        return "https://\(host):\(port)"
    }

    /// The server's TLS configuration: the given certificate and key, or
    /// material in `tls.directory` (default `defaultDirectory`), generated
    /// there when absent. Returns the CA file clients should trust, if generated here.
    public func serverTLS(defaultDirectory: String) throws(SimulatorSetupError) -> (
        HTTP2ServerTLSConfiguration, caFile: String?
    ) {
        let clientAuthentication: HTTP2ServerTLSConfiguration.ClientAuthentication =
            tls?.clientCA.map { .optional(caFile: $0) } ?? .none
        if let certificate = tls?.certificate {
            guard let key = tls?.key else { throw SimulatorSetupError("tls: certificate needs key") }
            return (
                HTTP2ServerTLSConfiguration(
                    certificateChainFile: certificate, privateKeyFile: key, clientAuthentication: clientAuthentication),
                nil
            )
        }
        let directory = tls?.directory ?? defaultDirectory
        let material: SimulatorTLSMaterial
        if let existing = SimulatorTLSMaterial.existing(in: directory) {
            material = existing
        } else {
            do { material = try SimulatorTLSMaterial.generate(in: directory) } catch {
                throw SimulatorSetupError(error.description)
            }
        }
        return (
            HTTP2ServerTLSConfiguration(
                certificateChainFile: material.serverCertificatePath, privateKeyFile: material.serverKeyPath,
                clientAuthentication: clientAuthentication), material.caCertificatePath
        )
    }
}

/// One provider's services in a simulator being set up, with the section
/// they were built from: what `herald simulate` serves, and says once it
/// listens.
///
/// It exists so the command carries each provider from building to its
/// start-up lines without naming it.
public struct SimulatedProviderServices: Sendable {
    /// The section the services were built from.
    public let section: any SimulatedProvider
    /// The services to serve (none when the section turns the provider off).
    public let services: [any SimulatorService]

    public init(section: any SimulatedProvider, services: [any SimulatorService]) {
        self.section = section
        self.services = services
    }

    /// The server listens at `origin`: the provider starts what needs it and says its start-up lines.
    public func started(origin: String, say: (String) -> Void) throws {
        try section.started(services, origin: origin, say: say)
    }
}
