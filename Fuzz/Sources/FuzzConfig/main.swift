// Fuzzes the YAML loader and config validation: the bytes as `config.yaml`
// through `ConfigLoader.load` (libyaml, `${VAR}` expansion, decoding,
// validation, error positions), and as a simulator settings file.
import Foundation
import FuzzSupport
import HeraldConfig
import HeraldCore
import HeraldProviders
import HeraldSimulator
import HeraldYAML

// One scratch file per process: the loaders read files, as `herald run` does.
let directory = NSTemporaryDirectory() + "herald-fuzz-config-\(getpid())"
try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
let file = directory + "/config.yaml"
let environment = ["HERALD_FUZZ_VALUE": "value", "HERALD_FUZZ_EMPTY": ""]

FuzzDriver.run { input in
    guard FileManager.default.createFile(atPath: file, contents: Data(input)) else {
        preconditionFailure("cannot write \(file)")
    }
    do throws(ConfigError) {
        let loaded = try ConfigLoader.load(file: file, environment: environment, providers: RegisteredProviders.all)
        _ = loaded.warnings.map(\.description)
    } catch {
        _ = error.description
    }
    _ = try? SimulatorSettings.load(file: file, environment: environment)
}
