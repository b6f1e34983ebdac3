/// One mapping read through keyed containers during decoding: which of its
/// keys some `CodingKey` type accepted, and which keys `init(from:)` asked
/// for (in order), to report unknown keys once the type is fully decoded.
struct MappingVisit {
    let path: [any CodingKey]
    let entries: [YAMLMappingEntry]
    var known: Set<String> = []
    private(set) var requested: [String] = []

    init(path: [any CodingKey], entries: [YAMLMappingEntry]) {
        self.path = path
        self.entries = entries
    }

    mutating func request(_ key: String) {
        if !requested.contains(key) { requested.append(key) }
    }

    var unknownEntries: [YAMLMappingEntry] {
        entries.filter { !known.contains($0.key) }
    }
}
