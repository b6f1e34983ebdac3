import Foundation
import HeraldCore
import HeraldSystem
import Testing

@Suite struct BoundedFileTests {
    private func temporaryFile(_ bytes: [UInt8], mode: Int = 0o600) throws -> String {
        let path = NSTemporaryDirectory() + "herald-bounded-\(UInt64.random(in: 0...UInt64.max))"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func aFileWithinItsLimitIsReadWholeWithItsMode() throws {
        let path = try temporaryFile(Array("key material".utf8), mode: 0o640)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try BoundedFile(path: path, limit: .key)
        #expect(file.utf8Text == "key material")
        #expect(file.modeDescription == "0640")
        #expect(!file.isReadableByOthers)
    }

    @Test func theLimitItselfIsAllowedAndOneByteMoreIsNot() throws {
        let exact = try temporaryFile(Array(repeating: 0x41, count: 100))
        let over = try temporaryFile(Array(repeating: 0x41, count: 101))
        defer { [exact, over].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        #expect(try BoundedFile(path: exact, maximumBytes: 100).bytes.count == 100)
        #expect(throws: BoundedFile.Error(path: over, reason: .tooLarge(size: 101, limit: 100))) {
            try BoundedFile(path: over, maximumBytes: 100)
        }
    }

    @Test func errorsSayWhatIsWrongWithThePath() throws {
        let open = try temporaryFile([], mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: open) }
        #expect(try BoundedFile(path: open, limit: .key).isReadableByOthers)
        #expect(throws: BoundedFile.Error(path: "/nonexistent/k.p8", reason: .notFound)) {
            try BoundedFile(path: "/nonexistent/k.p8", limit: .key)
        }
        #expect(
            BoundedFile.Error(path: "/tmp", reason: .isDirectory).description
                == "'/tmp' is a directory, expected a file")
        #expect(
            BoundedFile.Error(path: "/k", reason: .tooLarge(size: 2_300_000_000, limit: 65536)).description
                == "'/k' is 2.1 GiB, over the 64 KiB limit for such a file")
        #expect(throws: BoundedFile.Error(path: "/dev/null", reason: .notRegularFile)) {
            try BoundedFile(path: "/dev/null", limit: .config)
        }
    }

    @Test func byteCountsReadAsPeopleWriteThem() {
        #expect(ByteCount(1).description == "1 byte")
        #expect(ByteCount(1023).description == "1023 bytes")
        #expect(ByteCount(64 << 10).description == "64 KiB")
        #expect(ByteCount(1536).description == "1.5 KiB")
        #expect(ByteCount(4 << 20).description == "4 MiB")
    }
}

@Suite struct URLSecretsTests {
    @Test func thePasswordIsHiddenAndTheRestKept() {
        #expect(URLSecrets.redacted("amqp://herald:s3cret@broker:5672/%2f") == "amqp://herald:***@broker:5672/%2f")
        #expect(URLSecrets.redacted("https://u:p@x/a@b") == "https://u:***@x/a@b")
        #expect(URLSecrets.redacted("https://oauth2.googleapis.com/token") == "https://oauth2.googleapis.com/token")
        #expect(URLSecrets.redacted("https://user@host/") == "https://user@host/")
    }

    /// The authority ends where AMQPURL ends it (the first / or ?), so an
    /// unescaped @, : or # in a password is masked with the rest of it.
    @Test func aPasswordHoldingAtColonOrHashIsMaskedWhole() {
        #expect(URLSecrets.redacted("amqp://u:p@ss:w@h:5672/v") == "amqp://u:***@h:5672/v")
        #expect(URLSecrets.redacted("amqp://u:pa#ss@h/%2f") == "amqp://u:***@h/%2f")
        #expect(URLSecrets.redacted("amqp://h#u:pw@x") == "amqp://h#u:***@x")
        #expect(URLSecrets.userInfo(of: "https://h#frag@x") == "h#frag")
    }

    /// A / or ? in a password cuts the authority short, so no parser reads it
    /// as a password; it is masked up to the URL's last @ all the same.
    @Test func aPasswordHoldingSlashOrQuestionMarkIsMaskedToo() {
        #expect(URLSecrets.redacted("amqp://u:pa/ss@h/%2f") == "amqp://u:***@h/%2f")
        #expect(URLSecrets.redacted("amqp://u:pa?ss@h") == "amqp://u:***@h")
        #expect(URLSecrets.redacted("amqp://h/v@x") == "amqp://h/v@x", "no : before the @: nothing to mask")
    }

    @Test func userInfoIsFoundOnlyInTheAuthority() {
        #expect(URLSecrets.userInfo(of: "https://user:pw@host/token") == "user:pw")
        #expect(URLSecrets.userInfo(of: "https://user@host") == "user")
        #expect(URLSecrets.userInfo(of: "https://host/path@at") == nil)
        #expect(URLSecrets.userInfo(of: "https://host?q=a@b") == nil)
        #expect(URLSecrets.userInfo(of: "not a url") == nil)
    }
}

@Suite struct MessageExcerptTests {
    @Test func longValuesAreCutToOneShortLineWithTheirSize() {
        #expect("short".truncatedForMessage == "short")
        #expect("two\nlines".truncatedForMessage == "two...")
        let huge = String(decoding: [UInt8](repeating: UInt8(ascii: "x"), count: 50 << 20), as: UTF8.self)
        let cut = huge.truncatedForMessage
        #expect(cut == String(repeating: "x", count: 57) + "... (50 MiB in all)")
    }
}
