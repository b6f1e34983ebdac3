/// Rows printed as aligned columns under an upper-case header, two spaces
/// apart, for commands whose output a person reads (`herald registry
/// list-devices`); `--json` gives the same rows to a program.
struct Table {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: String...) { self.header = header }
    init(header: [String]) { self.header = header }

    mutating func add(_ row: String...) { rows.append(row) }
    mutating func add(_ row: [String]) { rows.append(row) }

    /// The header and rows, each column as wide as its widest cell (counted
    /// in characters); the last column is not padded.
    var text: String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }.joined()
        }.joined(separator: "\n")
    }
}
