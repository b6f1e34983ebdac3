import HeraldCore
import HeraldRegistry
import HeraldTestSupport

/// Devices and times for registry tests.
enum Devices {
    /// A distinct APNs device per number (its number in 64 hex digits).
    static func apns(_ number: Int, app: String = "chat") -> DeviceKey {
        let hex = String(number, radix: 16)
        return DeviceKey(
            app: app, provider: .apns, address: .token(String(repeating: "0", count: 64 - hex.count) + hex))
    }

    /// A distinct FCM device per number, by registration token.
    static func fcm(_ number: Int, app: String = "chat") -> DeviceKey {
        DeviceKey(app: app, provider: .fcm, address: .token("fcm-token-\(number)"))
    }

    /// A time with whole microseconds (what the stores keep), `offset` microseconds after a fixed start.
    static func time(_ offset: Int64 = 0) -> Timestamp {
        Timestamp(seconds: 1_764_700_000, nanoseconds: offset * 1000)
    }
}

extension RegistryStore {
    /// Every registration on the channel, walking pages of `pageSize`; also returns the page sizes.
    func walk(
        app: String, channel: String, providers: Set<Provider>? = nil,
        pageSize: Int
    ) async throws -> (registrations: [Registration], pages: [Int]) {
        var all: [Registration] = []
        var pages: [Int] = []
        var cursor: RegistryCursor?
        repeat {
            let page = try await devices(
                app: app, channel: channel, providers: providers, after: cursor, limit: pageSize)
            all += page.registrations
            pages.append(page.registrations.count)
            cursor = page.next
        } while cursor != nil
        return (all, pages)
    }
}

/// The error `body` throws, nil when it succeeds.
func registryError<T>(_ body: () async throws(RegistryError) -> T) async -> RegistryError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
