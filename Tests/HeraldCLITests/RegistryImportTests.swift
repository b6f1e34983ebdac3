import Foundation
import Glibc
import HeraldCLI
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// `herald registry import` and `export`, run as the real binary against a
/// real SQLite file and a real PostgreSQL schema: bad lines named and
/// skipped, an import killed halfway finished by running it again, and
/// export → import giving the same registry.
@Suite struct RegistryImportTests {
    /// Line `n` (from 1): APNs device `n` on its own channel and one of 50 rooms.
    static func line(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        let token = String(repeating: "0", count: 64 - hex.count) + hex
        return #"{"app":"chat","provider":"apns","token":"\#(token)","channels":["user:\#(n)","room:\#(n % 50)"]}"#
    }

    /// `count` lines, those of `bad` replaced by the given text.
    static func file(_ count: Int, bad: [Int: String] = [:]) throws -> String {
        try file(lines: (1...count).map { bad[$0] ?? line($0) })
    }

    /// A temporary file of these lines.
    static func file(lines: [String]) throws -> String {
        let path = NSTemporaryDirectory() + "herald-import-\(UInt64.random(in: 0 ... .max)).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Runs the herald binary to its end: exit status, stdout, stderr.
    static func herald(_ arguments: [String], input: String? = nil) async throws -> (
        status: Int32, out: String, err: String
    ) {
        let errors = NSTemporaryDirectory() + "herald-import-\(UInt64.random(in: 0 ... .max)).err"
        defer { unlink(errors) }
        let run = try await runTool(
            "/bin/sh",
            ["-c", #""$0" "$@" 2>"\#(errors)" <"\#(input ?? "/dev/null")""#, try ChildProcess.heraldExecutable()]
                + arguments,
            errors: .discarded, timeout: .seconds(600))
        let err = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return (run.status, run.output.trimmingCharacters(in: .newlines), err.trimmingCharacters(in: .newlines))
    }

    /// The counters `count` reads, and the rows export finds: they must agree.
    static func registry(_ database: TestDatabase) async throws -> (app: Int, rooms: Int, rows: Int) {
        let store = try database.makeStore()
        defer { store.close() }
        var rooms = 0
        for room in 0..<50 { rooms += try await store.count(app: "chat", channel: "room:\(room)") }
        var rows = 0
        var after: DeviceKey?
        repeat {
            let page = try await store.exportPage(app: "chat", after: after, limit: 10_000)
            rows += page.registrations.reduce(0) { $0 + $1.channels.count }
            after = page.next
        } while after != nil
        return (try await store.count(app: "chat", channel: nil), rooms, rows)
    }

    @Test(arguments: Backend.allCases) func badLinesAreNamedAndTheOthersImported(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let config = try RegistryAdminCommandTests.config(for: database)
            #expect(try await Self.herald(["registry", "migrate", "--config", config]).status == 0)
            let count = 100_000
            let bad = [
                17: #"{"app":"chat","provider":"apns","token":"00ff","channels":["user:17"]"#,
                50_000: #"{"app":"chta","provider":"apns","token":"00ff","channels":["user:1"]}"#,
                99_999: #"{"app":"chat","provider":"apns","token":"00ff","channels":["room:\u0007"]}"#,
            ]
            let file = try Self.file(count, bad: bad)
            defer { unlink(file) }
            let run = try await Self.herald(["registry", "import", file, "--config", config])
            #expect(run.status == 1)
            #expect(run.out == "imported 99997, updated 0, unchanged 0, refused 3")
            let refusals = run.err.split(separator: "\n").map(String.init)
            #expect(refusals.count == 4, "\(run.err)")
            #expect(refusals.first?.hasPrefix("\(file):17: body: ") == true, "\(refusals)")
            #expect(refusals.dropFirst().first?.hasPrefix(#"\#(file):50000: app: unknown app "chta""#) == true)
            #expect(
                refusals.dropFirst(2).first?.hasPrefix("\(file):99999: channels[0]: channel has a control character")
                    == true)
            #expect(
                refusals.last
                    == "herald registry import: 3 lines were refused (listed above); the others are registered")
            let registry = try await Self.registry(database)
            #expect(registry.app == 2 * (count - 3))
            #expect(registry.rows == registry.app)
            #expect(registry.rooms == count - 3)
        }
    }

    @Test(arguments: Backend.allCases) func anImportKilledHalfwayIsFinishedByRunningItAgain(_ backend: Backend)
        async throws
    {
        try await TestDatabase.with(backend) { database in
            let config = try RegistryAdminCommandTests.config(for: database)
            #expect(try await Self.herald(["registry", "migrate", "--config", config]).status == 0)
            let count = 40_000
            let file = try Self.file(count)
            defer { unlink(file) }
            let child = try ChildProcess(
                try ChildProcess.heraldExecutable(),
                ["registry", "import", file, "--batch-size", "500", "--config", config])
            let store = try database.makeStore()
            defer { store.close() }
            // Killed once some batches are committed (and, for the test to mean anything, not all).
            try await eventually("a batch of the import is committed, or the import ended", timeout: .seconds(120)) {
                if child.poll() != nil { return true }
                return try await store.count(app: "chat", channel: nil) > 0
            }
            #expect(child.poll() == nil, "the import ended before it was killed: \(child.tail())")
            child.send(SIGKILL)
            #expect(await child.waitForExit(timeout: .seconds(60)) == .signaled(SIGKILL))
            let partial = try await Self.registry(database)
            #expect(partial.rows > 0 && partial.rows < 2 * count, "\(partial)")
            #expect(partial.app == partial.rows)
            #expect(partial.rooms * 2 == partial.rows)

            let again = try await Self.herald(["registry", "import", file, "--json", "--config", config])
            #expect(again.status == 0, "\(again.err)")
            #expect(
                again.out
                    == #"{"imported":\#(count - partial.rows / 2),"updated":0,"unchanged":\#(partial.rows / 2),"refused":0}"#
            )
            let registry = try await Self.registry(database)
            #expect(registry.app == 2 * count)
            #expect(registry.rows == 2 * count)
            #expect(registry.rooms == count)
        }
    }

    @Test(arguments: Backend.allCases) func exportThenImportGivesTheSameRegistry(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { source in
            try await TestDatabase.with(backend) { target in
                let sourceConfig = try RegistryAdminCommandTests.config(for: source)
                let targetConfig = try RegistryAdminCommandTests.config(for: target)
                for config in [sourceConfig, targetConfig] {
                    #expect(try await Self.herald(["registry", "migrate", "--config", config]).status == 0)
                }
                let token = String(repeating: "ab", count: 32)
                let lines =
                    (1...2500).map(Self.line) + [
                        #"{"app":"chat","provider":"apns","token":"\#(token)","channels":["beta"],"environment":"sandbox","topic":"com.example.chat"}"#,
                        #"{"app":"chat","provider":"apns","token":"\#(token)","channels":["user:1","caf\u00e9"]}"#,
                        #"{"app":"chat","provider":"android","fid":"cAbC-1_x","channels":["room:1"],"timezone":"Europe/Paris","locale":"fr-FR","attributes":{"plan":"pro","a":"1"}}"#,
                        #"{"app":"shop","provider":"fcm","token":"t-1","channels":["room:1","sale"]}"#,
                    ]
                let file = try Self.file(lines: lines)
                defer { unlink(file) }
                #expect(try await Self.herald(["registry", "import", file, "--config", sourceConfig]).status == 0)
                let exported = try await Self.herald(["registry", "export", "--config", sourceConfig])
                #expect(exported.status == 0, "\(exported.err)")
                #expect(exported.out.split(separator: "\n").count == 2500 + 4)
                #expect(
                    exported.out.contains(
                        #"{"app":"chat","provider":"apns","token":"\#(token)","channels":["beta"],"environment":"sandbox","topic":"com.example.chat"}"#
                    ))
                let copy = try Self.file(lines: [exported.out])
                defer { unlink(copy) }
                let imported = try await Self.herald(
                    ["registry", "import", "-", "--config", targetConfig], input: copy)
                #expect(imported.out == "imported 2504, updated 0, unchanged 0, refused 0", "\(imported.err)")
                #expect(try await Self.herald(["registry", "export", "--config", targetConfig]).out == exported.out)

                let room = try await Self.herald([
                    "registry", "export", "--app", "chat", "--channel", "room:1", "--config", targetConfig,
                ])
                #expect(room.out.split(separator: "\n").count == 51)
                // The device's profile comes with it, attributes in byte order.
                let profiled =
                    #"{"app":"chat","provider":"fcm","fid":"cAbC-1_x","channels":["room:1"],"timezone":"Europe/Paris","locale":"fr-FR","attributes":{"a":"1","plan":"pro"}}"#
                #expect(exported.out.contains(profiled))
                #expect(room.out.contains(profiled))
                let shop = try await Self.herald(["registry", "export", "--app", "shop", "--config", targetConfig])
                #expect(shop.out == #"{"app":"shop","provider":"fcm","token":"t-1","channels":["room:1","sale"]}"#)
            }
        }
    }
}
