import Foundation

/// Runs the `openssl` command line tool and turns a non-zero exit into a `TestPKIError`.
enum OpenSSLCommand {
    static func run(step: String, _ arguments: [String]) throws(TestPKIError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw TestPKIError(step: step, output: "cannot start /usr/bin/openssl: \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestPKIError(step: step, output: String(decoding: data, as: UTF8.self))
        }
    }
}
