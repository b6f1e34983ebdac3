import Foundation
import HeraldCore
import HeraldYAML

/// Reads `config.yaml`: parse (libyaml), expand `${VAR}`, decode, validate —
/// and reports every problem at its file, line and column.
public enum ConfigLoader {
    /// Loads and validates the config at `file`.
    /// - Throws: `ConfigError` listing every error (and the warnings) when the config cannot be used.
    public static func load(file: String, environment: [String: String]) throws(ConfigError) -> LoadedConfig {
        let document: YAMLDocument
        let configuration: Configuration
        do {
            document = try YAMLDocument(contentsOfFile: file, environment: environment)
            configuration = try document.decode(Configuration.self)
        } catch {
            throw ConfigError(file: file, errors: [error], warnings: [])
        }
        let directory = (file as NSString).deletingLastPathComponent
        let validator = ConfigValidator(baseDirectory: directory.isEmpty ? "." : directory)
        let (issues, router) = validator.validate(configuration)
        let positioned = issues.map { issue in
            (issue.severity, document.error(at: issue.path.codingPath, (issue.severity == .warning ? "warning: " : "") + issue.message))
        }
        let errors = positioned.filter { $0.0 == .error }.map(\.1)
        let warnings = positioned.filter { $0.0 == .warning }.map(\.1)
        guard errors.isEmpty, let router else {
            throw ConfigError(file: file, errors: errors, warnings: warnings)
        }
        return LoadedConfig(file: file, configuration: configuration, router: router, warnings: warnings,
                            baseDirectory: validator.baseDirectory)
    }
}

extension ConfigPath {
    /// The same path as coding keys, to ask the YAML document for a position.
    var codingPath: [any CodingKey] {
        components.map { component -> any CodingKey in
            switch component {
            case .key(let k): PathKey(stringValue: k)
            case .index(let i): PathKey(intValue: i)
            }
        }
    }
}

private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
