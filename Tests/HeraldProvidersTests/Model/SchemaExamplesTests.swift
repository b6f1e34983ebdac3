import Foundation
import HeraldProviders
import Testing
@testable import HeraldCore

/// Keeps `schemas/` honest: the example files that scripts/validate-schemas
/// checks against the JSON Schemas must get the same verdict from the
/// decoders Herald actually runs.
@Suite("Schema examples agree with the decoders")
struct SchemaExamplesTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas/examples")

    static func files(_ folder: String, prefix: String = "") -> [URL] {
        let directory = examples.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    @Test func everyExampleFolderHasFiles() {
        #expect(!Self.files("events").isEmpty)
        #expect(!Self.files("outcomes").isEmpty)
        #expect(!Self.files("invalid", prefix: "event-").isEmpty)
    }

    @Test(arguments: files("events"))
    func validEventExampleDecodes(_ url: URL) throws {
        _ = try Event.decode(try Self.bytes(url), fallbackID: "msg-1", providers: .registered)
    }

    /// What the schema refuses, Herald refuses too: the whole event, or —
    /// for a problem inside one target — that target (its own terminal outcome).
    @Test(arguments: files("invalid", prefix: "event-"))
    func invalidEventExampleIsRefused(_ url: URL) throws {
        let body = try Self.bytes(url)
        do {
            let event = try Event.decode(body, fallbackID: "msg-1", providers: .registered)
            #expect(!event.invalidTargets.isEmpty, "\(url.lastPathComponent) should be refused, or one of its targets")
        } catch {}
    }

    /// Only the valid outcomes: `Outcome.decode` is tolerant on purpose
    /// (unknown fields, `at` without milliseconds), the schema describes what
    /// Herald publishes.
    @Test(arguments: files("outcomes"))
    func validOutcomeExampleDecodes(_ url: URL) throws {
        _ = try Outcome.decode(try Self.bytes(url), providers: .registered)
    }
}
