import HeraldYAML

/// Loads `text` as `config.yaml` with a fixed environment (never the process's).
func load(_ text: String, environment: [String: String] = [:]) throws(YAMLError) -> YAMLDocument {
    try YAMLDocument(text: text, file: "config.yaml", environment: environment)
}

/// Loads and decodes, returning the value.
func decode<T: Decodable>(_ type: T.Type, _ text: String, environment: [String: String] = [:]) throws(YAMLError) -> T {
    try load(text, environment: environment).decode(type)
}

/// The rendered error of loading and decoding, or "no error".
func errorText<T: Decodable>(_ type: T.Type, _ text: String, environment: [String: String] = [:]) -> String {
    do {
        _ = try decode(type, text, environment: environment)
        return "no error"
    } catch {
        return error.description
    }
}

/// The rendered error of loading only, or "no error".
func loadErrorText(_ text: String, environment: [String: String] = [:]) -> String {
    do {
        _ = try load(text, environment: environment)
        return "no error"
    } catch {
        return error.description
    }
}

extension YAMLNode {
    /// The scalar value at a key path of mapping keys, for loader tests.
    func value(_ keys: String...) -> String? {
        var node: YAMLNode? = self
        for key in keys { node = node?[key] }
        return node?.scalar?.value
    }
}
