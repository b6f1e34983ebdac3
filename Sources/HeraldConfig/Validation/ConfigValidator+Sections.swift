import HeraldCore

extension ConfigValidator {
    func validateRetry(_ retry: RetrySettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        checkRange(retry.maxAttempts, 1...100, at: path.key("max_attempts"), into: &issues)
        if retry.delays.isEmpty && retry.maxAttempts > 1 {
            issues.append(.init(.error, at: path.key("delays"), "no delays: give at least one, e.g. [5s, 30s, 2m]"))
        }
        for (i, delay) in retry.delays.enumerated() where delay.milliseconds < 100 {
            issues.append(.init(.error, at: path.key("delays").index(i), "a retry delay must be at least 100ms, found \(delay)"))
        }
        if retry.delays.count > retry.maxAttempts - 1 && retry.maxAttempts > 0 && !retry.delays.isEmpty {
            issues.append(.init(.warning, at: path.key("delays"),
                                "\(retry.delays.count) delays but only \(max(0, retry.maxAttempts - 1)) retries (max_attempts \(retry.maxAttempts)); the extra delays are never used"))
        }
    }

    func validateOutcomes(_ outcomes: OutcomeSettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        var seen = Set<String>()
        for (i, status) in outcomes.publish.enumerated() {
            if !OutcomeSettings.allStatuses.contains(status) {
                issues.append(.init(.error, at: path.key("publish").index(i),
                                    "unknown outcome status '\(status)'\(Suggestions.didYouMean(status, among: OutcomeSettings.allStatuses))"
                                        + " (expected one of: \(OutcomeSettings.allStatuses.joined(separator: ", ")))"))
            } else if !seen.insert(status).inserted {
                issues.append(.init(.warning, at: path.key("publish").index(i), "'\(status)' is listed twice"))
            }
        }
        if !outcomes.publish.contains("invalid_token") {
            issues.append(.init(.warning, at: path.key("publish"),
                                "invalid_token outcomes are not published, so upstream never learns which tokens are dead"))
        }
    }
}
