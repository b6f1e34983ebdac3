import Foundation
import Testing
import HeraldYAML

@Suite struct FileLoadingTests {
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "herald-yaml-\(UUID().uuidString).yaml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func loadError(_ path: String) -> String {
        do {
            _ = try YAMLDocument(contentsOfFile: path, environment: [:])
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func fileIsLoadedWithItsPathAsTheName() throws {
        let path = try temporaryFile(Array("a: [1\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            loadError(path)
                == "\(path):2:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"
        )
    }

    @Test func validFileLoads() throws {
        let path = try temporaryFile(Array("name: café\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let doc = try YAMLDocument(contentsOfFile: path, environment: [:])
        #expect(doc.file == path)
        #expect(doc.root.value("name") == "café")
    }

    @Test func missingFileIsAnErrorWithoutPosition() {
        #expect(loadError("/nonexistent/config.yaml") == "/nonexistent/config.yaml: the file does not exist")
    }

    @Test func directoryIsAnError() {
        #expect(
            loadError(NSTemporaryDirectory()) == "\(NSTemporaryDirectory()): the file is a directory, expected a file")
    }

    @Test func invalidUTF8IsAnErrorWithLineZero() throws {
        let path = try temporaryFile(Array("a: ok\nb: ".utf8) + [0xC3, 0x28] + Array("\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try YAMLDocument(contentsOfFile: path, environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 0)
            #expect(error.column == 0)
            #expect(error.description == "\(path): file is not valid UTF-8 (invalid byte 0xc3 at offset 9)")
        }
    }

    @Test func aFileOverTheConfigLimitIsRefusedBeforeItIsRead() throws {
        let path = NSTemporaryDirectory() + "herald-yaml-\(UUID().uuidString).yaml"
        // A sparse file: 5 MiB long, no disk used, and never read.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("a: 1\n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 5 << 20)
        try handle.close()
        #expect(loadError(path) == "\(path): the file is 5 MiB, over the 4 MiB limit for such a file")
    }

    @Test func aFIFOIsNotReadAsAConfig() throws {
        let path = NSTemporaryDirectory() + "herald-yaml-\(UUID().uuidString).fifo"
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(loadError(path) == "\(path): the file is not a regular file")
    }
}
