/// A coding path made hashable, so a mapping visit can be found again by
/// the path of the node it belongs to.
struct CodingPathID: Hashable {
    private struct Component: Hashable {
        var string: String
        var int: Int?
    }

    private let components: [Component]

    init(_ path: [any CodingKey]) {
        components = path.map { Component(string: $0.stringValue, int: $0.intValue) }
    }

    func hasPrefix(_ prefix: CodingPathID) -> Bool {
        components.starts(with: prefix.components)
    }
}
