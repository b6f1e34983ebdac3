/// A coding path made hashable, so a mapping visit (or a value left out by a
/// collected error) can be found again by the path of its node.
///
/// Keys are compared by their string value only. At one place of the document
/// there is either a mapping or a sequence, and sequence indices are spelt
/// `Index 3` (`YAMLCodingKey`), so the string tells every place apart. Whether
/// a key also carries an integer depends on who made it. `Dictionary` gives
/// its key `"1"` the integer 1, a validator's `YAMLCodingKey("1")` does not,
/// and both name the same place.
struct CodingPathID: Hashable, Sendable {
    private let components: [String]

    init(_ path: [any CodingKey]) {
        components = path.map(\.stringValue)
    }

    func hasPrefix(_ prefix: CodingPathID) -> Bool {
        components.starts(with: prefix.components)
    }
}
