// Fuzzes Herald's JSON parser (HeraldCore): any bytes either parse or throw a
// JSONError; what parses serializes to text that parses back to the same value.
import FuzzSupport
import HeraldCore

let tight = JSONLimits(maxDepth: 8, maxBytes: 256)

FuzzDriver.run { input in
    let bytes = Array(input)
    guard let value = try? JSONValue.parse(input) else {
        _ = try? JSONValue.parse(bytes, limits: tight)
        return
    }
    let serialized = value.serialized
    precondition(
        value.serializedCount == serialized.count, "serializedCount \(value.serializedCount) != \(serialized.count)")
    do {
        let again = try JSONValue.parse(serialized)
        precondition(again == value, "re-parsed value differs: \(value.jsonString) vs \(again.jsonString)")
    } catch {
        preconditionFailure("the serialized form does not parse: \(error): \(value.jsonString)")
    }
    _ = try? JSONValue.parse(bytes, limits: tight)
    if let text = String(validating: bytes, as: UTF8.self) { _ = try? JSONValue.parse(text) }
}
