import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldRegistry

/// Removes from the registry the devices a provider said are dead: every
/// `invalid_token` outcome about a registrable device removes it (from every
/// channel of its app) and says so in the outcome (`unregistered`).
struct DevicePruner: Sendable {
    let registry: any RegistryStore
    /// The providers whose devices the registry keeps.
    let registrableProviders: Set<Provider>
    let metrics: HeraldMetrics
    let logger: Logger

    /// Prunes the devices of `work`'s `invalid_token` outcomes. A failure to
    /// remove is logged; the outcome still tells upstream.
    func prune(_ work: inout DeliveryWork) async {
        for index in work.results.indices where work.results[index].outcome.status == .invalidToken {
            let outcome = work.results[index].outcome
            guard !outcome.unregistered, let app = outcome.app, let provider = outcome.provider,
                registrableProviders.contains(provider), let address = outcome.address, address.isDevice
            else { continue }
            let device = DeviceKey(app: app, provider: provider, address: address)
            let started = ContinuousClock.now
            do {
                let change = try await registry.unregisterDevice(device)
                metrics.registryOperations.labels("prune", "ok").increment()
                metrics.registryOperationDuration.labels("prune").observe(ContinuousClock.now - started)
                if case .removed = change {
                    work.results[index].outcome.unregistered = true
                    metrics.registryPrunes.labels(provider.rawValue, app).increment()
                }
            } catch {
                metrics.registryOperations.labels("prune", "error").increment()
                logger.warning(
                    "a dead device could not be removed from the registry",
                    [
                        "event_id": .string(outcome.eventID), "app": .string(app),
                        "provider": .string(provider.rawValue),
                        "token": .token(address.value), "error": .string("\(error)"),
                    ])
            }
        }
    }
}
