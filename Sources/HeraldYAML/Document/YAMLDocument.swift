import Foundation

/// A loaded YAML file: the node tree plus the file name every error carries.
/// Load once, decode config types from it, then keep it to position the
/// errors of later semantic validation (`error(at:_:)`).
public struct YAMLDocument: Sendable {
    /// The name errors are reported under (`config.yaml`).
    public let file: String
    /// The document's root node, with `${VAR}` already expanded.
    public let root: YAMLNode

    /// Parses `text` as exactly one YAML document.
    /// - Parameters:
    ///   - file: the name used in error messages.
    ///   - environment: where `${VAR}` references are looked up.
    public init(
        text: String,
        file: String = "<text>",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(YAMLError) {
        let parser = try YAMLParser(text: text, file: file)
        var composer = YAMLComposer(parser: parser, file: file, expander: EnvironmentExpander(environment: environment))
        self.root = try composer.composeDocument()
        self.file = file
    }

    /// A document made from a tree built elsewhere (tests, generated config).
    public init(root: YAMLNode, file: String) {
        self.root = root
        self.file = file
    }
}
