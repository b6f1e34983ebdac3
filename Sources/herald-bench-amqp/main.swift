import Foundation
import HeraldAMQP
import HeraldCore

/// `herald-bench-amqp`: confirmed-publish and consume+ack rates of HeraldAMQP
/// against a real broker, for `bench/amqp.sh` (which runs Debian's amqp-tools
/// side by side). Prints one `key=value` line per run.
///
///     herald-bench-amqp setup|teardown --url U --queue Q
///     herald-bench-amqp publish --url U --queue Q --count N [--size BYTES] [--window W]
///     herald-bench-amqp consume --url U --queue Q --count N [--prefetch P]
struct Options {
    var command = ""
    var url = "amqp://guest:guest@127.0.0.1:5672/%2f"
    var queue = "bench.amqp"
    var count = 20_000
    var size = 256
    var window = 512
    var prefetch: UInt16 = 256

    init(_ arguments: [String]) throws {
        var rest = arguments.dropFirst()
        guard let command = rest.popFirst() else { throw BenchError.usage }
        self.command = command
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError.usage }
            switch flag {
            case "--url": url = value
            case "--queue": queue = value
            case "--count": count = Int(value) ?? count
            case "--size": size = Int(value) ?? size
            case "--window": window = Int(value) ?? window
            case "--prefetch": prefetch = UInt16(value) ?? prefetch
            default: throw BenchError.usage
            }
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case usage
    case consumerEnded(Int)

    var description: String {
        switch self {
        case .usage: "usage: herald-bench-amqp setup|teardown|publish|consume --url U --queue Q [--count N] [--size B] [--window W] [--prefetch P]"
        case .consumerEnded(let count): "the consumer ended after \(count) deliveries"
        }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func report(_ name: String, count: Int, elapsed: Duration, extra: String = "") {
    let rate = Double(count) / max(seconds(elapsed), 1e-9)
    print("tool=herald-amqp op=\(name) messages=\(count) seconds=\(String(format: "%.3f", seconds(elapsed))) rate=\(Int(rate))/s\(extra)")
}

func runBench(_ options: Options, _ connection: AMQPConnection) async throws {
    switch options.command {
    case "setup":
        try await connection.declareQueue(options.queue, arguments: ["x-queue-type": "classic"])
        try await connection.purgeQueue(options.queue)
    case "teardown":
        try await connection.deleteQueue(options.queue)
    case "publish":
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: options.size)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for _ in 0..<options.count {
                if inFlight >= options.window {
                    try await group.next()
                    inFlight -= 1
                }
                group.addTask {
                    try await connection.publish(exchange: "", routingKey: options.queue, body: body, persistent: true,
                                                 mandatory: true)
                }
                inFlight += 1
            }
            try await group.waitForAll()
        }
        report("publish-confirmed", count: options.count, elapsed: .now - start,
               extra: " size=\(options.size) window=\(options.window)")
    case "consume":
        let start = ContinuousClock.now
        let consumer = try await connection.consume(queue: options.queue, prefetch: options.prefetch)
        var received = 0
        for try await delivery in consumer.deliveries {
            try await connection.ack(delivery)
            received += 1
            if received == options.count { break }
        }
        guard received == options.count else { throw BenchError.consumerEnded(received) }
        report("consume-ack", count: received, elapsed: .now - start, extra: " prefetch=\(options.prefetch)")
        try await connection.cancel(consumer)
    default:
        throw BenchError.usage
    }
}

do {
    let options = try Options(CommandLine.arguments)
    var configuration = try AMQPConfiguration(url: options.url)
    configuration.confirmWindow = options.window
    configuration.reconnect.maxAttempts = 3
    let connection = try AMQPConnection(configuration: configuration, logger: Logger(label: "bench", level: .warning))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await connection.run() }
        try await connection.waitUntilConnected()
        try await runBench(options, connection)
        connection.shutdown()
        try await group.waitForAll()
    }
} catch {
    FileHandle.standardError.write(Data("herald-bench-amqp: \(error)\n".utf8))
    exit(1)
}
