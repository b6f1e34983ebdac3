import Foundation

/// Runs the `openssl` command-line tool, so our signer and verifier are checked
/// against an implementation that shares none of our code paths.
enum OpenSSLCommandLine {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-crypto-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `openssl arguments...`; returns its exit status and standard output.
    @discardableResult
    static func run(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        let inPipe = Pipe()
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` from a JOSE `r‖s`, written out
    /// by hand here (not with HeraldCrypto) so the conversion is checked independently.
    static func derFromJOSE(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var b = Array(bytes.drop(while: { $0 == 0 }))
            if b.isEmpty { b = [0] }
            if b[0] & 0x80 != 0 { b.insert(0, at: 0) }
            return [0x02, UInt8(b.count)] + b
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    /// JOSE `r‖s` from a DER ECDSA signature, parsed by hand.
    static func joseFromDER(_ der: [UInt8]) throws -> [UInt8] {
        guard der.count > 8, der[0] == 0x30 else { throw Failure(description: "not a DER sequence") }
        var i = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            guard der[i] == 0x02 else { throw Failure(description: "not a DER integer") }
            let length = Int(der[i + 1])
            var value = Array(der[(i + 2)..<(i + 2 + length)].drop(while: { $0 == 0 }))
            while value.count < 32 { value.insert(0, at: 0) }
            out += value
            i += 2 + length
        }
        return out
    }
}
