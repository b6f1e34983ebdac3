import HeraldCore
import HeraldProviders
import HeraldObservability

/// The metric series the pipeline touches per notification, looked up once at
/// start instead of per use: `MetricFamily.labels` hashes its label values
/// under the family's lock, which several pool threads would contend for
/// several times per notification.
///
/// Outcomes of an app that is not configured (a rejected event names any app)
/// fall back to `labels`, so the series for them still appear.
struct PipelineSeries: Sendable {
    struct ProviderSeries: Sendable {
        let inflightRequests: Gauge
        let requestDuration: Histogram

        init(_ provider: Provider, in metrics: HeraldMetrics) {
            inflightRequests = metrics.inflightRequests.labels(provider.rawValue)
            requestDuration = metrics.providerRequestDuration.labels(provider.rawValue)
        }
    }

    private let metrics: HeraldMetrics
    private let byProvider: [Provider: ProviderSeries]
    private let published: [Outcome.Status: Counter]
    /// `herald_notifications_total` by app, then provider, then status.
    private let notifications: [String: [Provider: [Outcome.Status: Counter]]]

    init(metrics: HeraldMetrics, apps: some Sequence<String>) {
        self.metrics = metrics
        var byProvider: [Provider: ProviderSeries] = [:]
        for provider in ProviderCatalog.registered.providers {
            byProvider[provider] = ProviderSeries(provider, in: metrics)
        }
        self.byProvider = byProvider
        var published: [Outcome.Status: Counter] = [:]
        for status in Outcome.Status.allCases { published[status] = metrics.outcomesPublished.labels(status.rawValue) }
        self.published = published
        var notifications: [String: [Provider: [Outcome.Status: Counter]]] = [:]
        for app in apps {
            for provider in ProviderCatalog.registered.providers {
                for status in Outcome.Status.allCases {
                    notifications[app, default: [:]][provider, default: [:]][status] =
                        metrics.notifications.labels(provider.rawValue, app, status.rawValue)
                }
            }
        }
        self.notifications = notifications
    }

    func provider(_ provider: Provider) -> ProviderSeries {
        byProvider[provider] ?? ProviderSeries(provider, in: metrics)
    }

    func published(_ status: Outcome.Status) -> Counter {
        published[status] ?? metrics.outcomesPublished.labels(status.rawValue)
    }

    /// `provider` and `app` are nil for an outcome that names none (label `unknown`).
    func notifications(provider: Provider?, app: String?, status: Outcome.Status) -> Counter {
        if let provider, let app, let counter = notifications[app]?[provider]?[status] { return counter }
        return metrics.notifications.labels(provider?.rawValue ?? "unknown", app ?? "unknown", status.rawValue)
    }
}
