/// `--name value` command-line options with defaults.
struct BenchOptions {
    private var values: [String: String] = [:]

    init(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let key = arguments[index]
            if key.hasPrefix("--"), index + 1 < arguments.count {
                values[String(key.dropFirst(2))] = arguments[index + 1]
                index += 2
            } else {
                index += 1
            }
        }
    }

    func int(_ name: String, _ fallback: Int) -> Int { values[name].flatMap { Int($0) } ?? fallback }
    func string(_ name: String) -> String? { values[name] }
}
