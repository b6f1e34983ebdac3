import Foundation
import HeraldCore
import HeraldCrypto
import HeraldHTTP2Server
import HeraldYAML

extension SimulatorSettings {
    /// Reads a simulator YAML file (`${VAR}` expanded; errors carry file, line and column).
    public static func load(file: String, environment: [String: String]) throws(YAMLError) -> SimulatorSettings {
        try YAMLDocument(contentsOfFile: file, environment: environment).decode(SimulatorSettings.self)
    }

    /// The APNs service's configuration: keys loaded (public keys or `.p8`s),
    /// dead tokens dated (`since`, else `now`).
    public func apnsConfiguration(now: Timestamp) throws(SimulatorSetupError) -> APNsSimulatorConfiguration {
        let section = apns ?? APNs()
        var keys: [APNsSimulatorKey] = []
        for key in section.keys {
            let file: BoundedFile
            do { file = try BoundedFile(path: key.keyFile, limit: .key) } catch { throw SimulatorSetupError("apns.keys: key_file \(error)") }
            let pem = String(decoding: file.bytes, as: UTF8.self)
            do {
                keys.append(APNsSimulatorKey(keyID: key.keyID, teamID: key.teamID, publicKey: try PublicKey(pem: pem)))
            } catch {
                throw SimulatorSetupError("apns.keys: key_file \(key.keyFile): \(error)")
            }
        }
        var dead: [String: Timestamp] = [:]
        for token in section.deadTokens {
            guard let since = token.since else {
                dead[token.token] = now
                continue
            }
            guard let timestamp = Timestamp(rfc3339: since) else {
                throw SimulatorSetupError("apns.dead_tokens: since: expected an RFC 3339 time, found \"\(since)\"")
            }
            dead[token.token] = timestamp
        }
        let environment: APNsEnvironment
        switch section.environment {
        case nil: environment = .production
        case let name?:
            guard let known = APNsEnvironment(rawValue: name) else {
                throw SimulatorSetupError("apns.environment: expected production or sandbox, found \"\(name)\"")
            }
            environment = known
        }
        var environments: [String: APNsEnvironment] = [:]
        for token in section.sandboxTokens { environments[token] = .sandbox }
        for token in section.productionTokens { environments[token] = .production }
        return APNsSimulatorConfiguration(
            keys: keys, bundleIDs: section.topics, deadTokens: dead,
            minimumTokenUpdateInterval: section.tokenUpdateInterval?.duration ?? .zero,
            perTokenLimit: section.perTokenLimit?.requests, perTokenWindow: section.perTokenLimit?.per.duration ?? .seconds(1),
            environment: environment, tokenEnvironments: environments)
    }

    /// The listening address: `host:port` (default `127.0.0.1:2197`).
    public func listenAddress() throws(SimulatorSetupError) -> (host: String, port: Int) {
        let text = listen ?? "127.0.0.1:2197"
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { throw SimulatorSetupError("listen: expected host:port such as 127.0.0.1:2197, found \"\(text)\"") }
        return (String(text[..<colon]), port)
    }

    /// The server's TLS configuration: the given certificate and key, or
    /// material in `tls.directory` (default `defaultDirectory`), generated
    /// there when absent. Returns the CA file clients should trust, if generated here.
    public func serverTLS(defaultDirectory: String) throws(SimulatorSetupError) -> (HTTP2ServerTLSConfiguration, caFile: String?) {
        let clientAuthentication: HTTP2ServerTLSConfiguration.ClientAuthentication =
            tls?.clientCA.map { .optional(caFile: $0) } ?? .none
        if let certificate = tls?.certificate {
            guard let key = tls?.key else { throw SimulatorSetupError("tls: certificate needs key") }
            return (HTTP2ServerTLSConfiguration(
                certificateChainFile: certificate, privateKeyFile: key, clientAuthentication: clientAuthentication), nil)
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
        return (HTTP2ServerTLSConfiguration(
            certificateChainFile: material.serverCertificatePath, privateKeyFile: material.serverKeyPath,
            clientAuthentication: clientAuthentication), material.caCertificatePath)
    }
}
