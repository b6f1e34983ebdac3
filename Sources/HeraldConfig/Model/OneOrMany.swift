/// A config value that may be written as one string or a list of strings:
/// `routing_key: "marketing.#"` and `routing_key: ["a.#", "b.#"]` both decode.
public struct OneOrMany: Sendable, Hashable, Decodable {
    public let values: [String]

    public init(_ values: [String]) { self.values = values }

    public init(from decoder: any Decoder) throws {
        if let list = try? [String](from: decoder) {
            values = list
        } else if let one = try? decoder.singleValueContainer().decode(String.self) {
            values = [one]
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "expected a string or a list of strings"))
        }
    }
}
