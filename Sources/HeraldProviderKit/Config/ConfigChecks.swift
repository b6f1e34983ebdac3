import Foundation
import HeraldCore
import HeraldSystem

/// The checks every section of `config.yaml` shares (a file that must be
/// readable, an https:// URL, a number in range, a PEM private key), so a
/// provider's section validates with the same rules and messages as the rest
/// of the file.
///
/// Relative file paths are resolved against `baseDirectory`, the directory of
/// the config file, so a config works from any working directory.
public struct ConfigChecks: Sendable {
    public let baseDirectory: String
    /// How bad an unreadable `secret` file is: an error (Herald does not
    /// start), or a warning for an app's credentials with
    /// `unusable_credentials: not_ready`, where only that app is not ready
    /// (its provider cannot be set up, `/readyz` names it).
    public var unreadableSecret: ConfigIssue.Severity

    public init(baseDirectory: String, unreadableSecret: ConfigIssue.Severity = .error) {
        self.baseDirectory = baseDirectory
        self.unreadableSecret = unreadableSecret
    }

    /// `path` made absolute against the config file's directory.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
    }

    /// Reads `path` when it is a regular file within `limit`, else records
    /// why not. A `secret` file (a private key) readable by every user is a warning.
    @discardableResult
    public func readFile(
        _ path: String, at location: ConfigPath, what: String, limit: BoundedFile.Limit, secret: Bool = false,
        into issues: inout [ConfigIssue]
    ) -> BoundedFile? {
        let resolved = resolve(path)
        let file: BoundedFile
        do {
            file = try BoundedFile(path: resolved, limit: limit)
        } catch {
            if secret && unreadableSecret == .warning {
                issues.append(
                    .init(
                        .warning, at: location,
                        "\(what) \(error); this app will not be ready (unusable_credentials: not_ready)"))
            } else {
                issues.append(.init(.error, at: location, "\(what) \(error)"))
            }
            return nil
        }
        if secret && file.isReadableByOthers {
            issues.append(
                .init(
                    .warning, at: location,
                    "\(what) '\(resolved)' is readable by every user (mode \(file.modeDescription)); chmod 600 it"))
        }
        return file
    }

    /// An https:// URL with a host and no user info: Herald never sends in
    /// clear text, and credentials in a URL would reach logs and outcomes.
    public func checkHTTPSURL(
        _ url: String, at location: ConfigPath, what: String = "an https:// URL", into issues: inout [ConfigIssue]
    ) {
        let shown = URLSecrets.redacted(url).truncatedForMessage
        guard let parsed = URLComponents(string: url), parsed.scheme == "https", let host = parsed.host, !host.isEmpty
        else {
            issues.append(
                .init(
                    .error, at: location,
                    "expected \(what), found '\(shown)' (Herald never sends notifications in clear text)"))
            return
        }
        if URLSecrets.userInfo(of: url) != nil {
            issues.append(
                .init(
                    .error, at: location,
                    "'\(shown)' carries user info (user:password@); give \(what) without credentials"))
        }
    }

    public func checkRange(
        _ value: Int, _ range: ClosedRange<Int>, at location: ConfigPath, into issues: inout [ConfigIssue]
    ) {
        if !range.contains(value) {
            issues.append(
                .init(
                    .error, at: location,
                    "expected a number from \(range.lowerBound) to \(range.upperBound), found \(value)"))
        }
    }

    /// A private key in PEM: PKCS#8 or SEC 1. Its signer loads it for real at
    /// start-up; `what` names the key in the message.
    public func checkPrivateKeyPEM(_ text: String, what: String, at path: ConfigPath, into issues: inout [ConfigIssue])
    {
        if !text.contains(PEMArmor.begin(PEMArmor.pkcs8PrivateKey))
            && !text.contains(PEMArmor.begin(PEMArmor.ecPrivateKey))
        {
            issues.append(
                .init(
                    .error, at: path,
                    "expected a PEM private key (\(what), starting with \(PEMArmor.begin(PEMArmor.pkcs8PrivateKey)))"))
        }
    }

    /// A request timeout above 0: a request without one can hang forever.
    public func checkRequestTimeout(_ timeout: ConfigDuration, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        if timeout.milliseconds <= 0 {
            issues.append(
                .init(.error, at: path, "a request timeout must be above 0 (a request without one can hang forever)"))
        }
    }

    /// An idle timeout above 0.
    public func checkIdleTimeout(_ timeout: ConfigDuration, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        if timeout.milliseconds <= 0 {
            issues.append(.init(.error, at: path, "an idle timeout must be above 0"))
        }
    }

    /// A send throttle written in `unit` (`max_per_second`, `max_per_minute`):
    /// above 0 and within `RateBounds`.
    public func checkThrottle(
        _ limit: Double?, per unit: RateBounds.Unit = .second, at path: ConfigPath,
        into issues: inout [ConfigIssue]
    ) {
        guard let limit else { return }
        if !(limit > 0) {
            issues.append(.init(.error, at: path, "a throttle must be above 0, found \(limit)"))
        } else if let problem = RateBounds.problem(limit, in: unit) {
            issues.append(.init(.error, at: path, problem))
        }
    }

    /// `connections:` as a number: 1 to 64.
    public func checkConnections(
        _ connections: ConnectionsSetting, at path: ConfigPath, into issues: inout [ConfigIssue]
    ) {
        if case .count(let count) = connections { checkRange(count, 1...64, at: path, into: &issues) }
    }

    /// `ca_file:` readable within a CA bundle's limit.
    public func checkCAFile(_ caFile: String?, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        if let caFile { readFile(caFile, at: path, what: "CA file", limit: .caBundle, into: &issues) }
    }
}
