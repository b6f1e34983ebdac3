import Foundation
import Glibc
import HeraldCore
import HeraldCrypto
import HeraldTestSupport
import Testing

/// `herald run` as a real child process (the built `herald` executable):
/// signals, crashes, competing instances and a missing broker, checked by what
/// reaches the results exchange. Delivery is at least once: a missing outcome
/// fails a test, a duplicate is only counted and printed.
@Suite(.serialized) struct RunProcessTests {
    // MARK: 1. SIGTERM under load

    @Test func sigtermUnderLoadExitsZeroAndARestartFinishesEverything() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        simulator.fcm.update { $0.latency = .milliseconds(100) }
        let config = try ServiceConfig(
            simulator: simulator, prefetch: 16, shutdownDeadline: "20s",
            httpListen: "127.0.0.1:\(try freeLocalPort())", logLevel: "notice")
        try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
            try await declareTopology(config, fixture)
            let load = LoadEvents(count: 400)
            try await load.publish(with: fixture.publisher)

            let first = try fixture.start(config)
            let busy = await fixture.results.wait(timeout: .seconds(30)) {
                Tally($0, expected: load.keys).finished.count >= 40
            }
            try #require(busy, "no outcomes from the first instance:\n\(first.tail())")
            first.send(SIGTERM)
            let exit = await first.waitForExit(timeout: .seconds(40))
            #expect(
                exit == .exited(0),
                "SIGTERM under load: \(exit.map(\.description) ?? "still running after 40 s")\n\(first.tail())")
            let afterFirst = Tally(fixture.results.all, expected: load.keys)
            // It stopped consuming: the queue held far more than a prefetch window when the signal came.
            #expect(
                afterFirst.finished.count < load.keys.count, "the first instance finished everything despite SIGTERM")

            let (done, tally, tail) = try await restartAndFinish(
                "sigterm", note: "\(afterFirst.finished.count) finished by the first instance, ", load: load,
                config: config,
                fixture: fixture, timeout: .seconds(60))
            #expect(done, "\(tally.missingSummary)\n\(tail)")
            #expect(tally.unexpected.isEmpty, "outcomes for targets never published: \(tally.unexpected.prefix(5))")
            #expect(tally.statuses.keys.allSatisfy { $0 == "delivered" || $0 == "retrying" }, "\(tally.statuses)")
        }
    }

    // MARK: 2. kill -9 under load

    @Test func killNineUnderLoadThenARestartFinishesEverything() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        simulator.fcm.update { $0.latency = .milliseconds(100) }
        let config = try ServiceConfig(
            simulator: simulator, prefetch: 16, httpListen: "127.0.0.1:\(try freeLocalPort())",
            logLevel: "notice")
        try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
            try await declareTopology(config, fixture)
            let load = LoadEvents(count: 400)
            try await load.publish(with: fixture.publisher)

            let first = try fixture.start(config)
            let busy = await fixture.results.wait(timeout: .seconds(30)) {
                Tally($0, expected: load.keys).finished.count >= 40
            }
            try #require(busy, "no outcomes from the first instance:\n\(first.tail())")
            first.send(SIGKILL)
            #expect(await first.waitForExit(timeout: .seconds(20)) == .signaled(SIGKILL))
            let afterFirst = Tally(fixture.results.all, expected: load.keys)

            let (done, tally, tail) = try await restartAndFinish(
                "kill -9", note: "\(afterFirst.finished.count) finished before the kill, ", load: load, config: config,
                fixture: fixture, timeout: .seconds(60))
            #expect(done, "\(tally.missingSummary)\n\(tail)")
            #expect(tally.unexpected.isEmpty, "outcomes for targets never published: \(tally.unexpected.prefix(5))")
        }
    }

    // MARK: 3. Two instances on one queue

    @Test func twoInstancesShareOneQueueAndBothTakePart() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        simulator.fcm.update { $0.latency = .milliseconds(50) }
        let portA = try freeLocalPort(), portB = try freeLocalPort()
        let configA = try ServiceConfig(
            simulator: simulator, prefetch: 16, httpListen: "127.0.0.1:\(portA)", logLevel: "notice")
        let configB = try ServiceConfig(
            simulator: simulator, prefetch: 16, sharing: configA, httpListen: "127.0.0.1:\(portB)",
            logLevel: "notice")
        try await ProcessFixture.with(simulator: simulator, config: configA) { fixture in
            let a = try fixture.start(configA)
            let b = try fixture.start(configB)
            for (child, port) in [(a, portA), (b, portB)] {
                let ready = await eventually(timeout: .seconds(30)) {
                    httpGet(port: port, path: "/readyz")?.status == 200
                }
                try #require(ready, "instance on port \(port) never became ready:\n\(child.tail())")
            }
            let load = LoadEvents(count: 400)
            try await load.publish(with: fixture.publisher)

            let done = await fixture.results.wait(timeout: .seconds(60)) {
                Tally($0, expected: load.keys).missing.isEmpty
            }
            let tally = Tally(fixture.results.all, expected: load.keys)
            let consumedA = metricSum(
                "herald_events_consumed_total", in: httpGet(port: portA, path: "/metrics")?.body ?? "")
            let consumedB = metricSum(
                "herald_events_consumed_total", in: httpGet(port: portB, path: "/metrics")?.body ?? "")
            print(
                "[two instances] targets \(load.keys.count): events consumed A \(Int(consumedA)), B \(Int(consumedB)); "
                    + "duplicates \(tally.duplicates); statuses \(tally.statuses)")
            #expect(done, "\(tally.missingSummary)")
            #expect(tally.unexpected.isEmpty, "outcomes for targets never published: \(tally.unexpected.prefix(5))")
            #expect(consumedA > 0 && consumedB > 0, "both instances consume: A \(consumedA), B \(consumedB)")
            #expect(
                consumedA + consumedB >= Double(load.count), "A \(consumedA) + B \(consumedB) < \(load.count) events")

            a.send(SIGTERM)
            b.send(SIGTERM)
            #expect(await a.waitForExit(timeout: .seconds(40)) == .exited(0), "\(a.tail())")
            #expect(await b.waitForExit(timeout: .seconds(40)) == .exited(0), "\(b.tail())")
        }
    }

    // MARK: 4. A second signal exits at once

    @Test func aSecondSignalExitsAtOnceAndTheUnfinishedEventsAreRedelivered() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        // Answers so slow (10 s, within the 60 s provider timeout) that a drain would take that long.
        simulator.fcm.update { $0.latency = .seconds(10) }
        let port = try freeLocalPort()
        let config = try ServiceConfig(
            simulator: simulator, prefetch: 16, shutdownDeadline: "60s",
            httpListen: "127.0.0.1:\(port)", providerTimeout: "60s", logLevel: "notice")
        try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
            try await declareTopology(config, fixture)
            let load = LoadEvents(count: 10, fcmOnly: true)
            try await load.publish(with: fixture.publisher)

            let first = try fixture.start(config)
            try await waitForRequestsInFlight(port: port, of: first)
            first.send(SIGTERM)
            // The first signal drains: the slow requests keep it running.
            let draining = await eventually(timeout: .seconds(10)) {
                httpGet(port: port, path: "/readyz").map {
                    $0.status == 503 && $0.body.contains("consumer_active FAILING")
                } ?? false
            }
            #expect(draining, "no drain after the first SIGTERM:\n\(first.tail())")
            #expect(first.isRunning, "exited on the first SIGTERM although requests were in flight:\n\(first.tail())")
            first.send(SIGTERM)
            let exit = await first.waitForExit(timeout: .seconds(30))
            #expect(
                exit == .exited(128 + SIGTERM),
                "second SIGTERM: \(exit.map(\.description) ?? "still running after 30 s")\n\(first.tail())")
            // It did not wait for the 10 s answers: nothing was finished.
            #expect(fixture.results.all.isEmpty, "outcomes published before the exit: \(fixture.results.all.count)")

            simulator.fcm.update { $0.latency = nil }
            let (done, tally, tail) = try await restartAndFinish(
                "second signal", load: load, config: config, fixture: fixture, timeout: .seconds(30))
            #expect(done, "not redelivered: \(tally.missingSummary)\n\(tail)")
        }
    }

    // MARK: 5. The drain is bounded by shutdown_deadline

    /// Slow answers (20 s, within the provider timeout) past a 1 s `shutdown_deadline`:
    /// the process exits 0 at the deadline without acking the unfinished events.
    @Test func theDrainEndsAtShutdownDeadlineAndTheUnfinishedEventsAreRedelivered() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        simulator.fcm.update { $0.latency = .seconds(20) }
        let port = try freeLocalPort()
        let config = try ServiceConfig(
            simulator: simulator, prefetch: 16, shutdownDeadline: "1s",
            httpListen: "127.0.0.1:\(port)", providerTimeout: "60s", logLevel: "notice")
        try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
            try await declareTopology(config, fixture)
            let load = LoadEvents(count: 10, fcmOnly: true)
            try await load.publish(with: fixture.publisher)

            let first = try fixture.start(config)
            try await waitForRequestsInFlight(port: port, of: first)
            let signalled = ContinuousClock.now
            first.send(SIGTERM)
            let exit = await first.waitForExit(timeout: .seconds(15))
            print("[deadline] exit \(exit.map(\.description) ?? "none") after \(ContinuousClock.now - signalled)")
            #expect(
                exit == .exited(0),
                "SIGTERM with a 1 s shutdown_deadline: \(exit.map(\.description) ?? "still running after 15 s")\n\(first.tail())"
            )
            first.kill()
            // Nothing finished, nothing acked: no outcome, not even a `retrying` one.
            #expect(
                fixture.results.all.isEmpty,
                "outcomes published before the exit: \(fixture.results.all.map(\.routingKey))")

            simulator.fcm.update { $0.latency = nil }
            let (done, tally, tail) = try await restartAndFinish(
                "deadline", load: load, config: config, fixture: fixture, timeout: .seconds(30))
            #expect(done, "not redelivered: \(tally.missingSummary)\n\(tail)")
        }
    }

    // MARK: 6. The broker is down

    @Test func startsWithoutABrokerReportsNotReadyAndStopsOnSIGTERM() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let port = try freeLocalPort()
        let nobody = try freeLocalPort()
        let config = try ServiceConfig(
            simulator: simulator, amqpURL: "amqp://guest:guest@127.0.0.1:\(nobody)/%2f",
            httpListen: "127.0.0.1:\(port)", logLevel: "notice")
        let child = try ChildProcess.heraldRun(config: config.file)
        defer { child.kill() }
        let answered = await eventually(timeout: .seconds(30)) { httpGet(port: port, path: "/readyz") != nil }
        try #require(answered, "no /readyz answer:\n\(child.tail())")
        // Give it a few connection attempts: it must stay up and keep saying so. Time without a
        // broker is the input under test (its attempts are logged below the notice level).
        try await Task.sleep(for: .seconds(1))
        #expect(child.isRunning, "exited while the broker is down:\n\(child.tail())")
        let ready = httpGet(port: port, path: "/readyz")
        #expect(ready?.status == 503, "\(String(describing: ready))")
        #expect(ready?.body.contains("amqp_connected FAILING") == true, "\(ready?.body ?? "no answer")")
        #expect(httpGet(port: port, path: "/healthz")?.status == 200)
        child.send(SIGTERM)
        let exit = await child.waitForExit(timeout: .seconds(30))
        #expect(
            exit == .exited(0),
            "SIGTERM without a broker: \(exit.map(\.description) ?? "still running after 30 s")\n\(child.tail())")
    }
}

extension RunProcessTests {
    // MARK: 7. Credentials that cannot be used

    /// A config whose app `broken` signs APNs with an RSA key (Apple's keys are P-256).
    private func brokenCredentialsConfig(_ simulator: SimulatorHarness, port: Int, topLevel: String = "") throws
        -> ServiceConfig
    {
        let rsaKey = simulator.directory + "/rsa-\(UInt32.random(in: 0...UInt32.max)).p8"
        try PrivateKey.generateRSA().pkcs8PEM().write(toFile: rsaKey, atomically: true, encoding: .utf8)
        #expect(chmod(rsaKey, 0o600) == 0)
        let broken = ServiceConfig.apnsApp("broken", topic: "com.example.broken", simulator: simulator)
            .replacingOccurrences(of: simulator.apnsKeyFile, with: rsaKey)
        return try ServiceConfig(
            simulator: simulator, extraAppsYAML: broken, httpListen: "127.0.0.1:\(port)", logLevel: "notice",
            topLevelExtra: topLevel)
    }

    @Test func anAppWhoseKeyCannotSignStopsTheStartNamingTheAppAndFile() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try brokenCredentialsConfig(simulator, port: try freeLocalPort())
        let child = try ChildProcess.heraldRun(config: config.file)
        defer { child.kill() }
        let exit = await child.waitForExit(timeout: .seconds(30))
        #expect(exit == .exited(1), "\(exit.map(\.description) ?? "still running after 30 s")\n\(child.tail())")
        let log = child.tail()
        #expect(
            log.contains("apns credentials of app 'broken' cannot be used: key_file '\(simulator.directory)/rsa-"),
            "\(log)")
        #expect(log.contains("the APNs signing key must be EC P-256 (a .p8 key), found RSA 2048-bit"), "\(log)")
    }

    /// A key file that does not exist, with `not_ready`: `herald run` starts,
    /// `/readyz` names that app, and the other app delivers.
    @Test func aMissingKeyFileWithNotReadyMakesOnlyItsAppNotReady() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let port = try freeLocalPort()
        let missing = simulator.directory + "/missing-\(UInt32.random(in: 0...UInt32.max)).p8"
        let broken = ServiceConfig.apnsApp("broken", topic: "com.example.broken", simulator: simulator)
            .replacingOccurrences(of: simulator.apnsKeyFile, with: missing)
        let config = try ServiceConfig(
            simulator: simulator, extraAppsYAML: broken, httpListen: "127.0.0.1:\(port)", logLevel: "notice",
            topLevelExtra: "unusable_credentials: not_ready")
        try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
            let child = try fixture.start(config)
            let connected = await eventually(timeout: .seconds(30)) {
                httpGet(port: port, path: "/readyz").map { $0.body.contains("consumer_active ok") } ?? false
            }
            try #require(connected, "never consumed:\n\(child.tail())")
            let ready = httpGet(port: port, path: "/readyz")
            #expect(ready?.status == 503, "\(String(describing: ready))")
            #expect(ready?.body.contains("credentials_broken_apns FAILING") == true, "\(ready?.body ?? "no answer")")
            #expect(ready?.body.contains("credentials_chat") == false, "\(ready?.body ?? "no answer")")
            let token = String(repeating: "ab", count: 32)
            try await fixture.publisher.publish(
                #"{"id": "to-chat", "app": "chat", "provider": "apns", "token": "\#(token)"}"#)
            #expect(await fixture.results.wait { got in got.contains { $0.outcome.eventID == "to-chat" } })
            #expect(fixture.results.all.first { $0.outcome.eventID == "to-chat" }?.outcome.status == .delivered)
            #expect(child.tail().contains(missing), "the log names the missing file:\n\(child.tail())")
            child.send(SIGTERM)
            let exit = await child.waitForExit(timeout: .seconds(30))
            #expect(exit == .exited(0), "\(exit.map(\.description) ?? "still running after 30 s")\n\(child.tail())")
        }
    }

    @Test func withUnusableCredentialsNotReadyTheOtherAppsRunAndReadyzNamesTheApp() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let port = try freeLocalPort()
        let config = try brokenCredentialsConfig(simulator, port: port, topLevel: "unusable_credentials: not_ready")
        let child = try ChildProcess.heraldRun(config: config.file)
        defer { child.kill() }
        let connected = await eventually(timeout: .seconds(30)) {
            httpGet(port: port, path: "/readyz").map { $0.body.contains("consumer_active ok") } ?? false
        }
        try #require(connected, "never consumed:\n\(child.tail())")
        let ready = httpGet(port: port, path: "/readyz")
        #expect(ready?.status == 503, "\(String(describing: ready))")
        #expect(ready?.body.contains("credentials_broken_apns FAILING") == true, "\(ready?.body ?? "no answer")")
        #expect(ready?.body.contains("credentials_chat") == false, "\(ready?.body ?? "no answer")")
        child.send(SIGTERM)
        let exit = await child.waitForExit(timeout: .seconds(30))
        #expect(exit == .exited(0), "\(exit.map(\.description) ?? "still running after 30 s")\n\(child.tail())")
    }
}

// MARK: - Helpers

/// Starts a fresh instance on `config`, waits (up to `timeout`) until every
/// target of `load` has a terminal outcome, prints the tally (duplicates are
/// reported, not failed on), then stops the instance, which must exit 0.
/// Returns whether everything finished, the tally, and the instance's log tail.
private func restartAndFinish(
    _ label: String, note: String = "", load: LoadEvents, config: ServiceConfig, fixture: ProcessFixture,
    timeout: Duration
) async throws -> (done: Bool, tally: Tally, tail: String) {
    let second = try fixture.start(config)
    let done = await fixture.results.wait(timeout: timeout) { Tally($0, expected: load.keys).missing.isEmpty }
    let tally = Tally(fixture.results.all, expected: load.keys)
    print(
        "[\(label)] targets \(load.keys.count): \(note)\(tally.finished.count) in all; duplicates \(tally.duplicates); "
            + "statuses \(tally.statuses)")
    let tail = second.tail()
    second.send(SIGTERM)
    #expect(await second.waitForExit(timeout: .seconds(40)) == .exited(0), "\(second.tail())")
    return (done, tally, tail)
}

/// Waits until the instance listening on `port` reports a provider request in flight.
private func waitForRequestsInFlight(port: Int, of process: ChildProcess) async throws {
    let sending = await eventually(timeout: .seconds(30)) {
        metricSum("herald_inflight_requests", in: httpGet(port: port, path: "/metrics")?.body ?? "") >= 1
    }
    try #require(sending, "no FCM request in flight:\n\(process.tail())")
}

/// Starts and stops an instance once so the topology (exchanges, queues) exists
/// and events can be queued before the instance under test starts.
/// An idle instance stops on SIGTERM with status 0.
private func declareTopology(_ config: ServiceConfig, _ fixture: ProcessFixture) async throws {
    guard let port = config.httpPort else { throw TestFailure("the config needs a fixed http port") }
    let primer = try fixture.start(config)
    let ready = await eventually(timeout: .seconds(30)) { httpGet(port: port, path: "/readyz")?.status == 200 }
    try #require(ready, "herald run never became ready:\n\(primer.tail())")
    primer.send(SIGTERM)
    let exit = await primer.waitForExit(timeout: .seconds(30))
    try #require(
        exit == .exited(0),
        "idle herald run on SIGTERM: \(exit.map(\.description) ?? "still running")\n\(primer.tail())")
}

extension ServiceConfig {
    /// The fixed port in the config's `http.listen`, if not 0.
    var httpPort: Int? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("http:") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        let port = Int(line[line.index(after: colon)...].prefix { $0.isNumber }) ?? 0
        return port > 0 ? port : nil
    }
}

/// N events of 1–2 targets, mixed APNs and FCM (or FCM only); every target's key
/// is `event id/provider/token`.
private struct LoadEvents {
    let count: Int
    let bodies: [(id: String, body: String)]
    let keys: Set<String>

    init(count: Int, fcmOnly: Bool = false) {
        self.count = count
        var bodies: [(String, String)] = []
        var keys: Set<String> = []
        for i in 0..<count {
            let id = "evt-\(i)"
            // Not all zeros for event 0: that is the probe token, which APNs answers BadDeviceToken.
            let apnsToken = String(repeating: "e", count: 56) + String(format: "%08x", i)
            let fcmToken = "fcm-\(i)"
            var targets: [(String, String)] = []
            switch fcmOnly ? 1 : i % 3 {
            case 0: targets = [("apns", apnsToken)]
            case 1: targets = [("fcm", fcmToken)]
            default: targets = [("apns", apnsToken), ("fcm", fcmToken)]
            }
            let json = targets.map { #"{"provider": "\#($0.0)", "token": "\#($0.1)"}"# }.joined(separator: ", ")
            bodies.append(
                (id, #"{"id": "\#(id)", "app": "chat", "targets": [\#(json)], "notification": {"title": "n\#(i)"}}"#))
            for (provider, token) in targets { keys.insert("\(id)/\(provider)/\(token)") }
        }
        self.bodies = bodies
        self.keys = keys
    }

    /// Publishes every event (confirmed), a hundred at a time.
    func publish(with publisher: TestPublisher) async throws {
        for start in stride(from: 0, to: bodies.count, by: 100) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (id, body) in bodies[start..<min(start + 100, bodies.count)] {
                    group.addTask { try await publisher.publish(body, messageID: id) }
                }
                try await group.waitForAll()
            }
        }
    }
}
