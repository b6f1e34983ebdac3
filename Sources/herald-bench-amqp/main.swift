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
///     herald-bench-amqp stress --url U --queue Q --count BATCHES [--tasks T] [--size BYTES] [--window W]
///
/// `stress` publishes BATCHES batches of 1 to 12 messages from T tasks at once
/// (default 16), publishing a batch again after a retryable failure, so it
/// survives connections cut under it (through a relay the caller cuts); it
/// prints how many batches it published again and how many connections it opened.
struct Options {
    var command = ""
    var url = "amqp://guest:guest@127.0.0.1:5672/%2f"
    var queue = "bench.amqp"
    var count = 20_000
    var size = 256
    var window = 512
    var prefetch: UInt16 = 256
    var tasks = 16

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
            case "--tasks": tasks = Int(value) ?? tasks
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
        case .usage:
            "usage: herald-bench-amqp setup|teardown|publish|consume|stress --url U --queue Q [--count N] [--size B]"
                + " [--window W] [--prefetch P] [--tasks T]"
        case .consumerEnded(let count): "the consumer ended after \(count) deliveries"
        }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func report(_ name: String, count: Int, elapsed: Duration, extra: String = "") {
    let rate = Double(count) / max(seconds(elapsed), 1e-9)
    print(
        "tool=herald-amqp op=\(name) messages=\(count) seconds=\(String(format: "%.3f", seconds(elapsed))) rate=\(Int(rate))/s\(extra)"
    )
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
                    try await connection.publish(
                        exchange: "", routingKey: options.queue, body: body, persistent: true,
                        mandatory: true)
                }
                inFlight += 1
            }
            try await group.waitForAll()
        }
        report(
            "publish-confirmed", count: options.count, elapsed: .now - start,
            extra: " size=\(options.size) window=\(options.window)")
    case "stress":
        try await stress(options, connection)
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

/// `stress`: `options.count` batches from `options.tasks` tasks, each published until confirmed.
func stress(_ options: Options, _ connection: AMQPConnection) async throws {
    let start = ContinuousClock.now
    let perTask = max(1, options.count / max(1, options.tasks))
    let republished = try await withThrowingTaskGroup(of: Int.self) { group in
        for task in 0..<options.tasks {
            group.addTask {
                var again = 0
                for number in 0..<perTask {
                    let size = 1 + (task * 7 + number * 5) % 12
                    let messages = (0..<size).map { index in
                        AMQPMessage(
                            exchange: "", routingKey: options.queue,
                            body: [UInt8](repeating: UInt8(ascii: "s"), count: index == 0 ? options.size : 16),
                            properties: AMQPProperties(
                                headers: ["task": .int(Int64(task))], persistent: false,
                                messageID: "t\(task)-b\(number)-m\(index)"))
                    }
                    while true {
                        do {
                            try await connection.publish(messages, mandatory: task % 2 == 0)
                            break
                        } catch let error as AMQPError where error.isRetryable && error.code != .shutdown {
                            again += 1
                        }
                    }
                }
                return again
            }
        }
        return try await group.reduce(0, +)
    }
    report(
        "stress-batches", count: perTask * options.tasks, elapsed: .now - start,
        extra: " tasks=\(options.tasks) republished=\(republished) connections=\(connection.connectionsOpened)")
}

do {
    let options = try Options(CommandLine.arguments)
    var configuration = try AMQPConfiguration(url: options.url)
    configuration.confirmWindow = options.window
    configuration.reconnect.maxAttempts = 3
    if options.command == "stress" {
        // Connections are cut every second or so: come back within half a second each time.
        configuration.reconnect = BackoffPolicy(
            initial: .milliseconds(50), maximum: .milliseconds(500),
            maxAttempts: 100)
    }
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
