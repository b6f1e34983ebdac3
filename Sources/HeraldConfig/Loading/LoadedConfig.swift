import HeraldCore
import HeraldProviderKit
import HeraldYAML

/// A config that decoded and validated: what `herald run` starts from.
public struct LoadedConfig: Sendable {
    public let file: String
    public let configuration: Configuration
    /// The `routes:` compiled into the router the pipeline applies.
    public let router: Router
    /// Problems that do not stop Herald, each at its position.
    public let warnings: [YAMLError]
    /// Directory that relative paths in the config are relative to.
    public let baseDirectory: String

    /// A path from the config made absolute against the config file's directory.
    public func resolve(_ path: String) -> String {
        ConfigChecks(baseDirectory: baseDirectory).resolve(path)
    }
}
