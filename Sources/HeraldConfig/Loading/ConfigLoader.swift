import Foundation
import HeraldCore
import HeraldProviderKit
import HeraldYAML

/// Reads `config.yaml`: parse (libyaml), expand `${VAR}`, decode, validate —
/// and reports every problem at its file, line and column.
public enum ConfigLoader {
    /// Loads and validates the config at `file`, whose apps may have a
    /// section for each of `providers` and whose routes may name them
    /// (the program passes `HeraldProviders.RegisteredProviders.all`).
    ///
    /// Decoding goes on after the errors it can go on after (an unknown key,
    /// an optional setting of the wrong type, which then keeps its default),
    /// and validation runs on what was decoded. A validation issue at or below
    /// a place decoding left out is dropped: it would describe the default,
    /// not the file, and the decoding error already names the place.
    /// - Throws: `ConfigError` listing every error (and the warnings) when the config cannot be used.
    public static func load(
        file: String, environment: [String: String], providers: [ProviderRegistration]
    ) throws(ConfigError) -> LoadedConfig {
        let document: YAMLDocument
        do {
            document = try YAMLDocument(contentsOfFile: file, environment: environment)
        } catch {
            throw ConfigError(file: file, errors: [error], warnings: [])
        }
        let decoding = AppSettings.$sectionTypes.withValue(providers.map(\.settings)) {
            Result { () throws(YAMLDecodingErrors) in try document.decodeCollectingErrors(Configuration.self) }
        }
        let decoded: YAMLDecodingResult<Configuration>
        switch decoding {
        case .success(let value): decoded = value
        case .failure(let error): throw ConfigError(file: file, errors: error.errors, warnings: [])
        }
        let directory = (file as NSString).deletingLastPathComponent
        let validator = ConfigValidator(baseDirectory: directory.isEmpty ? "." : directory, providers: providers)
        var (issues, router) = validator.validate(decoded.value)
        if decoded.errors.isEmpty, !issues.contains(where: { $0.severity == .error }) {
            issues += validator.advice(decoded.value)
        }
        let positioned = issues.filter { !decoded.leftOut($0.path.codingPath) }.map { issue in
            (
                issue.severity,
                document.error(
                    at: issue.path.codingPath, (issue.severity == .warning ? "warning: " : "") + issue.message)
            )
        }
        let errors = decoded.errors + positioned.filter { $0.0 == .error }.map(\.1)
        let warnings = positioned.filter { $0.0 == .warning }.map(\.1)
        guard errors.isEmpty, let router else {
            throw ConfigError(file: file, errors: errors, warnings: warnings)
        }
        return LoadedConfig(
            file: file, configuration: decoded.value, router: router, warnings: warnings,
            baseDirectory: validator.baseDirectory)
    }
}

extension ConfigPath {
    /// The same path as coding keys, to ask the YAML document for a position.
    var codingPath: [any CodingKey] {
        components.map { component -> any CodingKey in
            switch component {
            case .key(let k): YAMLCodingKey(k)
            case .index(let i): YAMLCodingKey(index: i)
            }
        }
    }
}
