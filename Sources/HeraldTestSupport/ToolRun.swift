import Foundation

/// The output (stdout and stderr together) and exit status of an external
/// program a test runs: h2load, nghttp, curl, openssl, python3.
public struct ToolRun: Sendable {
    public let status: Int32
    public let output: String
}

/// Runs an installed command-line tool on its own thread (never blocking the
/// cooperative pool), feeding it `input` on stdin, and collects its output.
public func runTool(_ path: String, _ arguments: [String], input: Data? = nil) async throws -> ToolRun {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            let stdin = Pipe()
            process.standardInput = stdin
            do {
                try process.run()
                if let input { stdin.fileHandleForWriting.write(input) }
                try stdin.fileHandleForWriting.close()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: ToolRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self)))
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.start()
    }
}
