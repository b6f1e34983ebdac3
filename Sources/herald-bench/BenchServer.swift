import Glibc
import HeraldCore
import HeraldHTTP2Server

/// The server side of the benchmark: answers every POST/GET with 200 and a
/// small JSON body, as the APNs simulator's fast path will. Prints
/// `port <n>` once listening and runs until standard input closes.
struct BenchServer {
    let options: BenchOptions

    func run() async {
        guard let certificate = options.string("cert"), let key = options.string("key") else {
            BenchOutput.usage()
            exit(2)
        }
        let configuration = HTTP2ServerConfiguration(
            port: options.int("port", 0),
            tls: HTTP2ServerTLSConfiguration(certificateChainFile: certificate, privateKeyFile: key),
            maxConcurrentStreams: 1000)
        var router = HTTP2Router()
        let answer = HTTP2Response(status: 200, headers: [("apns-id", "00000000-0000-0000-0000-000000000000")])
        router.on("POST", "*") { _, responder in responder.respond(answer) }
        router.on("GET", "*") { _, responder in responder.respond(answer) }
        let logger = Logger(
            label: "bench.server", level: options.string("log").flatMap { LogLevel(name: $0) } ?? .warning)
        let server: HTTP2Server
        do {
            server = try HTTP2Server(configuration: configuration, handler: router, logger: logger)
        } catch {
            BenchOutput.line("error \(error)")
            exit(1)
        }
        BenchOutput.line("port \(server.port)")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await server.run() }
            group.addTask {
                // The parent closes our stdin to stop us.
                await StandardInput.waitForEOF()
                server.shutdown(graceful: false)
            }
            await group.waitForAll()
        }
    }
}
