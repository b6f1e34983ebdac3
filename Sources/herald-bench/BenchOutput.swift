import Glibc

/// Writes benchmark lines to standard output, flushed at once (the parent reads them live).
enum BenchOutput {
    static func line(_ text: String) {
        // One write(2) per line: unbuffered, so a parent reading the pipe sees it at once.
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }

    static func usage() {
        line(
            """
            usage: herald-bench http2 [--requests N] [--concurrency C] [--connections K] [--body-bytes B]
                                      [--ref PATH] [--h2load PATH] [--clients swift,swift-pool,ref,h2load] [--repeat 3]
                   herald-bench http2 --url URL --ca PEM [...]   [--executor loop|pool]  (our client only, against a running server)
                   herald-bench serve --cert PEM --key PEM [--port 0]
                   herald-bench pipeline [--events 2000] [--milliseconds 1500] [--seed 7]
                   herald-bench registry-fill [--backend sqlite --path FILE | --backend postgres --url URL [--pool 4]]
                                      [--devices 100000] [--first 0] [--concurrency 16] [--app bench] [--channel room:big]
                                      [--provider apns|fcm] [--tokens-out FILE]
            """)
    }
}
