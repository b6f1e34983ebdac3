import HeraldConfig

extension ParsedArguments {
    /// The config file a command reads: `--config`, else `$HERALD_CONFIG`, else `config.yaml`.
    func configFile(environment: [String: String]) -> String {
        options["config"] ?? environment["HERALD_CONFIG"] ?? "config.yaml"
    }
}

extension Command {
    /// Loads and validates `file`; on failure prints every problem and returns nil
    /// (the caller exits with `ExitStatus.failure`).
    func loadConfig(_ file: String, environment: [String: String], console: any Console) -> LoadedConfig? {
        do {
            return try ConfigLoader.load(file: file, environment: environment)
        } catch {
            console.err(error.description)
            return nil
        }
    }
}
