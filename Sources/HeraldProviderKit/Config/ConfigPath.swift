/// Where in `config.yaml` something is, as a key path (`routes[1].match.app`),
/// so a problem found after decoding can be reported at its line and column.
public struct ConfigPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public static let root = ConfigPath()

    public func key(_ name: String) -> ConfigPath { ConfigPath(components + [.key(name)]) }
    public func index(_ i: Int) -> ConfigPath { ConfigPath(components + [.index(i)]) }

    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .key(let k): out += out.isEmpty ? k : "." + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}
