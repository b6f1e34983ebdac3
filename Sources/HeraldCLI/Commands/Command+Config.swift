import HeraldConfig
import HeraldProviders
import HeraldService

extension ParsedArguments {
    /// The config file a command reads: `--config`, else `$HERALD_CONFIG`, else `config.yaml`.
    func configFile(environment: [String: String]) -> String {
        options["config"] ?? environment["HERALD_CONFIG"] ?? "config.yaml"
    }
}

extension Command {
    /// Loads and validates `file`, then parses its AMQP addresses as `herald
    /// run` connects to them (`amqpConfiguration()`, whose `AMQPURL` is the one
    /// rule for them); on failure prints every problem and returns nil (the
    /// caller exits with `ExitStatus.failure`). A command that uses no broker
    /// (`herald send`) passes `broker: false`: its addresses are not parsed.
    func loadConfig(
        _ file: String, environment: [String: String], console: any Console, broker: Bool = true
    ) -> LoadedConfig? {
        let loaded: LoadedConfig
        do {
            loaded = try ConfigLoader.load(file: file, environment: environment, providers: RegisteredProviders.all)
        } catch {
            console.err(error.description)
            return nil
        }
        guard broker else { return loaded }
        do {
            _ = try loaded.amqpConfiguration()
        } catch {
            for problem in error.problems { console.err("\(loaded.file): \(problem)") }
            console.err("\(loaded.file): \(error.problems.count) error\(error.problems.count == 1 ? "" : "s")")
            return nil
        }
        return loaded
    }
}
