import Glibc

// herald-bench: benchmarks for Herald's transports (release builds only).
//   herald-bench http2 [options]   our client → our server, C reference → our server, h2load → our server
//   herald-bench serve [options]   run the benchmark server alone (used as the child process)
//   herald-bench pipeline [options] CPU per notification of decoding, building and encoding, one thread
//   herald-bench registry-fill [options] register operations/s on the SQLite or PostgreSQL registry
let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    BenchOutput.usage()
    exit(2)
}
let options = BenchOptions(Array(arguments.dropFirst()))
switch command {
case "http2":
    await HTTP2Benchmark(options: options).run()
case "serve":
    await BenchServer(options: options).run()
case "pipeline":
    PipelineBenchmark(options: options).run()
case "registry-fill":
    await RegistryFill(options: options).run()
default:
    BenchOutput.usage()
    exit(2)
}
