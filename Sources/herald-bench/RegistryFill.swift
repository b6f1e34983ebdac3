import Glibc
import HeraldCore
import HeraldProviders
import HeraldRegistry
import HeraldSystem

/// `herald-bench registry-fill`: registers `--devices` devices on one channel
/// through the `RegistryStore` API (`register`, one device and one channel per
/// call), `--concurrency` calls in flight, and prints `register` operations/s
/// and this process's CPU per operation. Device `i` (from `--first`) has a
/// token drawn from `SplitMix64(seed: i)`, so fills with the same indices
/// register the same devices; `--tokens-out FILE` writes them, one per line,
/// for a benchmark that also names them as explicit targets.
struct RegistryFill {
    let options: BenchOptions

    func run() async {
        let backend = options.string("backend") ?? "sqlite"
        let app = options.string("app") ?? "bench"
        let channel = options.string("channel") ?? "room:big"
        let first = max(0, options.int("first", 0))
        let count = max(1, options.int("devices", 100_000))
        let concurrency = max(1, options.int("concurrency", 16))
        guard let provider = ProviderCatalog.registered.provider(named: options.string("provider") ?? "apns") else {
            fail("--provider is apns or fcm")
        }
        let store: any RegistryStore
        do {
            switch backend {
            case "sqlite":
                let path = options.string("path") ?? ".build/bench/registry.sqlite"
                store = try SQLRegistryStore(.sqlite(path: path), providers: .registered)
            case "postgres":
                guard let url = options.string("url") else { fail("--backend postgres needs --url") }
                store = try SQLRegistryStore(
                    .postgres(url: url, poolSize: options.int("pool", 4)), providers: .registered)
            default:
                fail("--backend is sqlite or postgres")
            }
            _ = try await store.migrate()
        } catch {
            fail("\(error)")
        }
        defer { store.close() }

        let devices = (first..<(first + count)).map { Self.token(index: $0, provider: provider) }
        if let path = options.string("tokens-out") { write(devices, to: path) }
        let next = Locked(0)
        let now = Timestamp.now()
        let cpu0 = CPUTime.processSeconds()
        let start = CPUTime.wallSeconds()
        let created = await withTaskGroup(of: Result<Int, RegistryError>.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var created = 0
                    while true {
                        let index = next.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < devices.count else { return .success(created) }
                        let key = DeviceKey(app: app, provider: provider, address: .token(devices[index]))
                        do throws(RegistryError) {
                            let changes = try await store.register(
                                key, channels: [channel], environment: nil, topic: nil, at: now)
                            if changes[channel] == .created { created += 1 }
                        } catch {
                            return .failure(error)
                        }
                    }
                }
            }
            var total = 0
            for await result in group {
                switch result {
                case .success(let created): total += created
                case .failure(let error): fail("register: \(error)")
                }
            }
            return total
        }
        let seconds = CPUTime.wallSeconds() - start
        let cpu = CPUTime.processSeconds() - cpu0
        let onChannel = (try? await store.count(app: app, channel: channel)) ?? -1
        BenchOutput.line(
            "registry-fill backend=\(backend) provider=\(provider.rawValue) devices=\(count) "
                + "concurrency=\(concurrency) created=\(created) on_channel=\(onChannel) seconds=\(format(seconds)) "
                + "rate=\(format(Double(count) / seconds))/s client_cpu_us_per_op=\(format(cpu / Double(count) * 1e6))")
    }

    /// Device `index`'s token: 64 hexadecimal digits for APNs, 152 URL-safe
    /// characters for FCM (the length of a real registration token).
    static func token(index: Int, provider: Provider) -> String {
        var generator = SplitMix64(seed: UInt64(index))
        let digits: [UInt8] =
            provider == .apns
            ? Array("0123456789abcdef".utf8)
            : Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let length = provider == .apns ? 64 : 152
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        while bytes.count < length {
            var word = generator.next()
            for _ in 0..<10 where bytes.count < length {
                bytes.append(digits[Int(word % UInt64(digits.count))])
                word /= UInt64(digits.count)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(_ tokens: [String], to path: String) {
        guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
        for token in tokens { fputs(token + "\n", file) }
        fclose(file)
    }

    private func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return String(rounded)
    }

    private func fail(_ message: String) -> Never {
        BenchOutput.line("registry-fill: \(message)")
        exit(1)
    }
}
