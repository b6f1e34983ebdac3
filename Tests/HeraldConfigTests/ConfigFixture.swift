import Foundation
import HeraldConfig
import HeraldProviders
import HeraldYAML

/// A temporary directory holding a config file and the key files it names,
/// made fresh for each test and removed afterwards.
final class ConfigFixture {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "herald-config-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write(
            "apns.p8",
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
        )
        try write(
            "fcm.json",
            """
            {"type": "service_account", "project_id": "demo", "private_key_id": "abc",
             "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n",
             "client_email": "svc@demo.iam.gserviceaccount.com", "token_uri": "https://oauth2.googleapis.com/token"}
            """)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes `text` to `name`, readable by its owner only (`mode`), as key files should be.
    func write(_ name: String, _ text: String, mode: Int = 0o600) throws {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// Writes `yaml` as config.yaml and loads it.
    func load(_ yaml: String, environment: [String: String] = [:]) throws(ConfigError) -> LoadedConfig {
        do { try write("config.yaml", yaml) } catch { fatalError("cannot write fixture: \(error)") }
        return try ConfigLoader.load(file: directory + "/config.yaml", environment: environment)
    }

    /// Loads `yaml` expecting failure; returns the report with the temp directory replaced by `DIR`.
    func errors(_ yaml: String, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try load(yaml, environment: environment)
            return ["(loaded without error)"]
        } catch {
            return (error.errors + error.warnings).map {
                $0.description.replacingOccurrences(of: directory, with: "DIR")
            }
        }
    }

    /// A minimal valid config with one app, to which a test appends.
    static let minimal = """
        apps:
          chat:
            apns:
              team_id: ABCDE12345
              key_id: KEY1234567
              key_file: apns.p8
              topic: com.example.chat
            fcm:
              service_account_file: fcm.json

        """
}

extension LoadedConfig {
    /// Its warnings but the advice given for an app without `publishers:`
    /// (`ConfigValidator.advice`), which every fixture without one gets;
    /// `PublisherConfigTests` pins that advice.
    var otherWarnings: [YAMLError] { warnings.filter { !$0.message.contains("has no publishers list") } }
}

extension ConfigLoader {
    /// Loads `file` with the registered providers, as `herald` does.
    static func load(file: String, environment: [String: String]) throws(ConfigError) -> LoadedConfig {
        try load(file: file, environment: environment, providers: RegisteredProviders.all)
    }
}
