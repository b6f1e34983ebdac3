import Foundation
import HeraldAPNs
import HeraldCore

/// What `herald init` writes for one app: the answers gathered from the
/// files found, the flags and the prompts.
struct InitPlan: Equatable, Sendable {
    struct APNs: Equatable, Sendable {
        var keyFile: String
        var keyID: String
        var teamID: String
        var bundleID: String
        var environment: APNsEnvironment
    }

    struct FCM: Equatable, Sendable {
        var serviceAccountFile: String
        var projectID: String
    }

    var app: String
    var apns: APNs?
    var fcm: FCM?
    /// Where the app's requests go instead of Apple's and Google's hosts (a simulator), with its CA.
    var endpoint: String?
    var caFile: String?

    /// The environment variable prefix of the app's placeholders: `chat-eu` → `CHAT_EU_`.
    var variablePrefix: String {
        String(app.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }) + "_"
    }

    /// The app's block under `apps:`, indented two spaces, each value a
    /// `${VAR:-value}` placeholder so a deployment can override it.
    func appBlock(relativeTo configDirectory: String) -> String {
        let prefix = variablePrefix
        var lines = ["  \(app):"]
        if let apns {
            lines += [
                "    apns:",
                "      team_id: ${\(prefix)APNS_TEAM_ID:-\(apns.teamID)}",
                "      key_id: ${\(prefix)APNS_KEY_ID:-\(apns.keyID)}",
                "      key_file: ${\(prefix)APNS_KEY_FILE:-\(Self.path(apns.keyFile, relativeTo: configDirectory))}",
                "      topic: ${\(prefix)APNS_TOPIC:-\(apns.bundleID)}",
                "      environment: ${\(prefix)APNS_ENVIRONMENT:-\(apns.environment.rawValue)}",
            ]
            if let endpoint { lines.append("      endpoint: \(endpoint)") }
            if let caFile { lines.append("      ca_file: \(Self.path(caFile, relativeTo: configDirectory))") }
        }
        if let fcm {
            lines += [
                "    fcm:",
                "      project_id: ${\(prefix)FCM_PROJECT_ID:-\(fcm.projectID)}",
                "      service_account_file: ${\(prefix)FCM_SERVICE_ACCOUNT_FILE:-\(Self.path(fcm.serviceAccountFile, relativeTo: configDirectory))}",
            ]
            if let endpoint { lines.append("      endpoint: \(endpoint)") }
            if let caFile { lines.append("      ca_file: \(Self.path(caFile, relativeTo: configDirectory))") }
        }
        lines += webPushBlock
        return lines.joined(separator: "\n")
    }

    /// A Web Push section, commented out: browsers need no file from a
    /// developer account, only a P-256 key of the deployment's own, which the
    /// comment says how to make (docs/webpush.md).
    var webPushBlock: [String] {
        [
            "    # Web Push to browsers (docs/webpush.md): make a key with",
            "    #   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out vapid.pem && chmod 600 vapid.pem",
            "    # then uncomment:",
            "    # webpush:",
            "    #   vapid:",
            "    #     private_key_file: ${\(variablePrefix)WEBPUSH_VAPID_KEY_FILE:-vapid.pem}",
            "    #     subject: ${\(variablePrefix)WEBPUSH_SUBJECT:-mailto:push@example.com}   # a contact push services accept",
        ]
    }

    /// A whole new config.yaml with this app and a route sending every event to it.
    func newConfig(relativeTo configDirectory: String) -> String {
        """
        # Herald configuration, written by `herald init`. docs/configuration.md
        # describes every key. ${VAR:-default} takes VAR from the environment when it
        # is set; relative paths are relative to this file's directory.

        amqp:
          url: ${HERALD_AMQP_URL:-amqp://guest:guest@127.0.0.1:5672/%2f}
          queue: herald.events
          queue_type: quorum
          bindings: ["#"]

        apps:
        \(appBlock(relativeTo: configDirectory))

        routes:
          - name: default
            match: {}
            app: \(app)

        http:
          listen: 127.0.0.1:9464    # /metrics, /healthz, /readyz

        log:
          level: info
          format: json

        """
    }

    /// `existing` with this app added under its top-level `apps:` (or an
    /// `apps:` section appended); the rest of the text is kept as it is.
    func extending(_ existing: String, relativeTo configDirectory: String) throws(InitError) -> String {
        var lines = existing.components(separatedBy: "\n")
        let block = appBlock(relativeTo: configDirectory)
        guard let index = lines.firstIndex(where: Self.isAppsKey) else {
            let separator = existing.hasSuffix("\n") || existing.isEmpty ? "" : "\n"
            return existing + separator + "\napps:\n" + block + "\n"
        }
        let rest = lines[index].drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
        guard rest.isEmpty || rest.hasPrefix("#") else {
            throw InitError(
                "the config's apps: is written inline ('\(lines[index])'); write it as a block to let herald init add an app"
            )
        }
        lines.insert(block, at: index + 1)
        return lines.joined(separator: "\n")
    }

    static func isAppsKey(_ line: String) -> Bool {
        line.hasPrefix("apps:")
    }

    /// `path` relative to the config's folder when it lies inside it, else absolute.
    static func path(_ path: String, relativeTo directory: String) -> String {
        let absolute = (path as NSString).standardizingPath
        let folder = (directory as NSString).standardizingPath
        if absolute.hasPrefix(folder + "/") { return String(absolute.dropFirst(folder.count + 1)) }
        return absolute
    }
}

/// Why `herald init` could not write a config: the message names the file,
/// flag or answer to fix.
struct InitError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
