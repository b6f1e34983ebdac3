import Glibc
import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldPipeline
import HeraldProviders

/// `herald-bench pipeline`: the CPU Herald's pool spends per notification on
/// its own (no broker, no HTTP, one thread): decode and plan an event, build
/// the APNs request or the FCM message with its size checks, encode the
/// outcome. Single-threaded and free of I/O, so it tells apart changes of a
/// few percent that the end-to-end bench's ±8–10% spread hides.
struct PipelineBenchmark {
    let options: BenchOptions

    func run() {
        let count = max(1, options.int("events", 2000))
        let minimumSeconds = Double(max(1, options.int("milliseconds", 1500))) / 1000
        var workload = PipelineWorkload(seed: UInt64(max(0, options.int("seed", 7))))
        let bodies = (0..<count).map { workload.event($0) }
        let planner = EventPlanner(
            router: Router(rules: []), apps: ["bench": [Provider.apns, Provider.fcm]], providers: .registered)
        let now = Timestamp(seconds: 1_796_032_800)
        let plans = bodies.map {
            planner.plan(IncomingEvent(body: $0, routingKey: "bench.1"), now: now, newID: { "x" })
        }
        let sends = plans.flatMap(\.sends)
        let apns = sends.filter { $0.target.provider == .apns }
        let fcm = sends.filter { $0.target.provider == .fcm }
        guard !apns.isEmpty, !fcm.isEmpty, plans.allSatisfy({ $0.outcomes.isEmpty }) else {
            BenchOutput.line("pipeline: the workload did not plan as expected")
            exit(1)
        }
        let apnsID = "0b1e8a7c-4b3a-4e8e-9f6a-2c1d0e9f8a7b"
        let builder = FCMMessageBuilder()
        var sink = 0  // bytes produced, printed so no stage is optimized away

        BenchOutput.line("stage                         items   µs/item   µs/notification")
        let decode = measure(minimumSeconds, items: bodies.count) {
            for body in bodies {
                sink &+=
                    planner.plan(IncomingEvent(body: body, routingKey: "bench.1"), now: now, newID: { "x" }).sends.count
            }
        }
        let apnsCost = measure(minimumSeconds, items: apns.count) {
            for send in apns {
                guard
                    let request = try? APNsRequest(
                        event: send.event, target: send.target, bundleID: "com.example.chat",
                        now: now, apnsID: apnsID)
                else { continue }
                sink &+= request.body.count &+ request.headers.fields.count
            }
        }
        let fcmCost = measure(minimumSeconds, items: fcm.count) {
            for send in fcm {
                let message = builder.message(for: send.event, to: send.target.address, now: now)
                sink &+=
                    FCMPayloadLimit.countedSize(of: message.object)
                    &+ (FCMPayloadLimit.apnsPayloadSize(of: message.object) ?? 0)
                sink &+= message.requestBody.count
            }
        }
        let outcomeCost = measure(minimumSeconds, items: sends.count) {
            for send in sends {
                sink &+= Outcome(.delivered, event: send.event, target: send.target, attempt: 1, at: now).encoded.count
            }
        }
        // Per notification: an event's decode and plan shared by its targets, then one build and one outcome.
        let perNotification = [
            ("decode + plan (per event)", decode, bodies.count, decode * Double(bodies.count) / Double(sends.count)),
            ("APNs request", apnsCost, apns.count, apnsCost * Double(apns.count) / Double(sends.count)),
            ("FCM message + size checks", fcmCost, fcm.count, fcmCost * Double(fcm.count) / Double(sends.count)),
            ("outcome", outcomeCost, sends.count, outcomeCost),
        ]
        for (name, micros, items, share) in perNotification {
            BenchOutput.line(
                BenchRow.pad(name, 30) + BenchRow.pad(String(items), 8)
                    + BenchRow.pad(BenchRow.format(micros, 2), 10) + BenchRow.format(share, 2))
        }
        let total = perNotification.reduce(0) { $0 + $1.3 }
        BenchOutput.line(
            BenchRow.pad("total", 48) + BenchRow.format(total, 2)
                + "   (\(bodies.count) events, \(sends.count) notifications)")
        if sink == Int.min { BenchOutput.line("") }  // keeps every stage's work observable
    }

    /// CPU µs per item of `body` (which handles `items` items), repeated for at least `seconds`.
    private func measure(_ seconds: Double, items: Int, _ body: () -> Void) -> Double {
        body()  // warm-up
        var rounds = 0
        let start = CPUTime.processSeconds()
        repeat {
            body()
            rounds += 1
        } while CPUTime.processSeconds() - start < seconds
        return (CPUTime.processSeconds() - start) / Double(rounds * items) * 1e6
    }
}
