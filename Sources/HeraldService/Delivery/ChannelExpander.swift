import HeraldAMQP
import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldRegistry

/// Expands an event's channel targets through the registry a page at a
/// time: each page of devices is planned like the event's own targets,
/// sent (`TargetSender`), its dead devices pruned, and its outcomes (with
/// retries and dead letters) published and confirmed (`WorkSettlement`) before
/// the next page is read, so a channel of 100 000 devices is delivered in
/// bounded memory. A device reached through several channels of one event,
/// or also named as a target, is notified once. When the event asks
/// (`include_device_attributes`), each device's target carries the time
/// zone, locale and attributes it registered with, which its outcome echoes.
///
/// The event is acked only after every page (and the event's own batch) is
/// confirmed; a page that cannot be read or published stops the expansion
/// and the event is redelivered, when this instance's redelivery memory
/// keeps the confirmed pages' devices from being notified again.
struct ChannelExpander: Sendable {
    /// Devices read per page.
    static let pageSize = 1000
    /// How long an event whose expansion stopped is held before it is requeued.
    static let retryPause: Duration = .seconds(1)

    let planner: EventPlanner
    let sender: TargetSender
    let settlement: WorkSettlement
    let pruner: DevicePruner
    let delivered: DeliveredTargets
    let topology: TopologyOptions
    let metrics: HeraldMetrics
    let logger: Logger
    let clock: @Sendable () -> Timestamp

    /// Why a channel expansion stopped before its end: the event is requeued.
    struct Stopped: Error {
        let reason: String
    }

    /// A device as the registry and providers tell devices apart.
    struct Device: Hashable {
        let provider: Provider
        let address: Target.Address
    }

    /// Expands every channel target of `work`'s plan, which came of
    /// `delivery`; nil when all were delivered and published, else why it stopped.
    func expand(_ work: DeliveryWork, of delivery: AMQPDelivery) async -> Stopped? {
        guard let event = work.plan.event else { return nil }
        let incoming = EventProcessor.incoming(delivery, topology: topology)
        let excluded = event.excluded(providers: planner.providers)
        var seen = Set(event.targets.map { Device(provider: $0.provider, address: $0.address) })
        for expansion in work.plan.expansions {
            var cursor: RegistryCursor?
            var reached = 0
            repeat {
                let page: RegistryPage
                let started = ContinuousClock.now
                do {
                    page = try await pruner.registry.devices(
                        app: expansion.app, channel: expansion.target.channel, providers: expansion.target.providers,
                        after: cursor, limit: Self.pageSize)
                    metrics.registryOperations.labels("expand", "ok").increment()
                    metrics.registryOperationDuration.labels("expand").observe(ContinuousClock.now - started)
                } catch {
                    metrics.registryOperations.labels("expand", "error").increment()
                    let channel = expansion.target.channel.truncatedForMessage
                    return Stopped(reason: "reading channel '\(channel)' of app '\(expansion.app)': \(error)")
                }
                var devices: [Target] = []
                for registration in page.registrations {
                    // Its target goes without keys and fails alone; the message names the device masked.
                    if let problem = registration.unreadableKeys {
                        logger.warning(
                            "a registered device's subscription keys cannot be read", ["error": .string(problem)])
                    }
                    let device = Device(provider: registration.device.provider, address: registration.device.address)
                    guard seen.insert(device).inserted else { continue }
                    var target = Self.target(
                        device, registration, channel: expansion.target.channel, providers: planner.providers)
                    if event.includeDeviceAttributes { target.deviceAttributes = registration.attributesObject }
                    devices.append(target)
                }
                reached += devices.count
                if let stopped = await deliver(
                    devices, of: event, incoming, excluded: excluded, after: work.plan,
                    delivery: delivery)
                {
                    return stopped
                }
                cursor = page.next
            } while cursor != nil
            metrics.channelExpansionSize.labels().observe(Double(reached))
        }
        return nil
    }

    /// The target of a registered device: reached through `channel`, with
    /// the extras its provider's rules make of its registration's environment
    /// and topic (APNs) or its row's subscription keys (Web Push), which its
    /// retries keep.
    static func target(_ device: Device, _ registration: Registration, channel: String, providers: ProviderCatalog)
        -> Target
    {
        var target = Target(provider: device.provider, address: device.address, channel: channel)
        if let rules = providers.rules(for: device.provider) {
            target.extras = rules.registeredExtras { column in
                switch column {
                case "environment": registration.environment
                case "topic": registration.topic
                case RegisteredDeviceField.p256dh: registration.subscriptionKeys?.p256dh
                case RegisteredDeviceField.auth: registration.subscriptionKeys?.auth
                default: nil
                }
            }
        }
        return target
    }

    /// Plans, sends, prunes and settles one page of a channel's devices.
    private func deliver(
        _ devices: [Target], of event: Event, _ incoming: IncomingEvent, excluded: ExcludedTokens,
        after plan: EventPlan, delivery: AMQPDelivery
    ) async -> Stopped? {
        guard !devices.isEmpty else { return nil }
        var pagePlan = plan.emptied
        planner.plan(devices, of: event, incoming, excluded: excluded, at: clock(), into: &pagePlan)
        var work = DeliveryWork(
            plan: pagePlan, redelivered: delivery.redelivered,
            budget: planner.limits.maxContextFanoutBytes)
        let (sends, remembered) = delivered.unhandled(
            pagePlan.sends, of: pagePlan, redelivered: delivery.redelivered,
            logger: logger)
        for result in remembered { work.add(result) }
        await sender.deliver(sends, into: &work)
        await pruner.prune(&work)
        if let failure = await settlement.settle(page: work, of: delivery) {
            return Stopped(reason: "publishing the outcomes of a page of channel devices: \(failure)")
        }
        return nil
    }
}
