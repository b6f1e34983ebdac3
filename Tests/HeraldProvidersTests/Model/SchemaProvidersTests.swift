import Foundation
import HeraldProviders
import Testing
@testable import HeraldCore

/// The JSON Schemas name the providers in `enum`s of their own; these tests
/// hold every such list to the registration list (`RegisteredProviders`),
/// so a provider added there and not in the schemas, or the other way
/// round, fails the suite.
@Suite("Schema provider lists agree with the registered providers")
struct SchemaProvidersTests {
    static let schemas = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas")

    /// Every `enum` given for a `provider` property, the items of a
    /// `providers` property or a `provider…` definition, outside `if`
    /// conditions (which single out one provider on purpose), with `null` left out.
    static func providerEnums(_ file: String) throws -> [[String]] {
        let json = try JSONValue.parse(Array(try Data(contentsOf: schemas.appendingPathComponent(file))))
        var found: [[String]] = []
        func names(_ value: JSONValue?) -> [String]? {
            value?["enum"]?.arrayValue.map { $0.compactMap(\.stringValue) }
        }
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for key in object.keys where key != "if" {
                    guard let member = object[key] else { continue }
                    if key == "$defs", case .object(let definitions) = member {
                        for name in definitions.keys where name.hasPrefix("provider") {
                            if let list = names(definitions[name]) { found.append(list) }
                        }
                    }
                    if key == "properties", case .object(let properties) = member {
                        if let list = names(properties["provider"]) { found.append(list) }
                        if let list = names(properties["providers"]?["items"]) { found.append(list) }
                    }
                    walk(member)
                }
            case .array(let elements):
                elements.forEach(walk)
            default:
                break
            }
        }
        walk(json)
        return found
    }

    static let catalog = ProviderCatalog.registered

    @Test func outcomesAndDebugTracesNameTheCanonicalProviders() throws {
        for file in ["outcome.schema.json", "debug-trace.schema.json", "registry-result.schema.json"] {
            let lists = try Self.providerEnums(file)
            #expect(!lists.isEmpty, "\(file) names no providers")
            for list in lists { #expect(list == Self.catalog.names, "\(file): \(list)") }
        }
    }

    @Test func eventsAcceptEveryNameAndAlias() throws {
        let lists = try Self.providerEnums("event.schema.json")
        #expect(lists.count >= 2, "the targets' provider and a channel's providers")
        for list in lists { #expect(list == Self.catalog.acceptedNames, "event.schema.json: \(list)") }
    }

    @Test func registryCommandsNameTheProvidersWhoseDevicesAreRegistered() throws {
        let registrable = Self.catalog.rules.filter { !$0.registrableKinds.isEmpty }
        let expected = registrable.map(\.provider.rawValue) + registrable.flatMap(\.aliases)
        let lists = try Self.providerEnums("registry-command.schema.json")
        #expect(!lists.isEmpty)
        for list in lists { #expect(list == expected, "registry-command.schema.json: \(list)") }
    }
}
