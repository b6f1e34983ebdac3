import Foundation

/// Runs the `openssl` command-line tool, so our RS256 signer and the
/// simulator's verifier are checked against code that shares nothing with ours.
enum OpenSSLCLI {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "herald-fcm-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `openssl arguments...`; returns the exit status and combined output.
    @discardableResult
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
