/// Called each time a provider renews its credential — an APNs provider token
/// signed, an FCM access token fetched — with whether it worked: the feed of
/// `herald_token_refreshes_total`.
public typealias CredentialRefreshHook = @Sendable (_ succeeded: Bool) -> Void
