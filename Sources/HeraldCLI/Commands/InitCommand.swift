import HeraldAPNs
import Foundation
import HeraldConfig
import HeraldCore
import HeraldProviders

/// `herald init`: guided setup from the files a developer downloads — an APNs
/// `AuthKey_<KEY ID>.p8` and a Firebase service-account JSON — to a config
/// that `herald check --online` has proven, asking only for what the files do
/// not carry (team id, bundle id, environment).
public struct InitCommand: SimpleCommand {
    /// One line typed at a prompt; nil at end of input.
    private let input: @Sendable () -> String?

    public init(input: @escaping @Sendable () -> String? = { readLine(strippingNewline: true) }) {
        self.input = input
    }

    public let name = "init"
    public let summary = "Guided setup: write config.yaml from an APNs .p8 and a service-account JSON"
    public var help: String {
        """
        Usage: herald init [PATH ...] [--config FILE] [--app NAME] [options]

        Looks for APNs keys (AuthKey_*.p8) and Google service-account JSONs in
        each PATH (a folder or a file; default: the current folder and
        ~/Downloads), reads the key id from the .p8's file name and the
        project id from the JSON, asks for the team id, bundle id and APNs
        environment, and writes the app into FILE: a new config when FILE does
        not exist, else the app is added under its apps: and the rest of the
        file is left as it is. Every value is written as a ${VAR:-value}
        placeholder (e.g. ${CHAT_APNS_TEAM_ID:-ABCDE12345}), so a deployment can
        override it. The result is validated before it replaces FILE, then
        proven with herald check --online.

        Options:
          --config FILE            the config to write or extend (default: config.yaml, or $HERALD_CONFIG)
          --app NAME               the app's name (default: the bundle id's last word, or the FCM project id)
          --p8 FILE                the APNs key (instead of searching)
          --key-id ID              the key id, when the .p8's name does not carry it
          --team-id ID             the Apple team id (10 characters, developer account → Membership)
          --bundle-id ID           the app's bundle id, the APNs topic (e.g. com.example.chat)
          --environment ENV        production (default) or sandbox (development builds)
          --service-account FILE   the service-account JSON (instead of searching)
          --endpoint URL           send the app's requests to URL instead of Apple's and Google's hosts (herald simulate)
          --ca-file FILE           an extra trust root for --endpoint
          --no-apns, --no-fcm      leave that provider out even if its file is found
          --non-interactive        ask nothing: what the files do not carry must be given as flags
          --dry-run                print what would be written, write nothing
          --offline                check the result without contacting the endpoints
          -h, --help               show this help
        """
    }

    var argumentSyntax: ArgumentSyntax {
        ArgumentSyntax(
            options: [
                "config", "app", "p8", "key-id", "team-id", "bundle-id", "environment", "service-account",
                "endpoint", "ca-file",
            ],
            flags: ["no-apns", "no-fcm", "non-interactive", "dry-run", "offline"],
            files: ["config", "p8", "service-account", "ca-file"], fileArguments: true)
    }

    struct Options {
        var config: String
        var places: [String]
        var flags: Set<String>
        var values: [String: String]

        var interactive: Bool { !flags.contains("non-interactive") }
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let options: Options
        do {
            let parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            var places = parsed.positionals
            if places.isEmpty {
                places = [FileManager.default.currentDirectoryPath]
                if let home = environment["HOME"] { places.append(home + "/Downloads") }
            }
            options = Options(
                config: parsed.configFile(environment: environment), places: places, flags: parsed.flags,
                values: parsed.options)
        } catch {
            return usageFailure(error, console: console)
        }
        do {
            let plan = try gather(options, console: console)
            return try await write(plan, options: options, environment: environment, console: console)
        } catch {
            console.err("herald init: \(error)")
            return ExitStatus.failure
        }
    }

    // MARK: Gathering the answers

    func gather(_ options: Options, console: any Console) throws(InitError) -> InitPlan {
        let prompts = Prompts(interactive: options.interactive, input: input, console: console)
        var apns: InitPlan.APNs?
        if !options.flags.contains("no-apns"), let key = try apnsKey(options, prompts: prompts) {
            let keyID = try prompts.value(
                given: options.values["key-id"] ?? key.keyID, flag: "--key-id",
                question: "Key id of \(key.path) (10 characters, Keys in Apple's developer account)",
                check: { APNsSettings.isAppleIdentifier($0) ? nil : "expected 10 upper-case letters or digits" })
            let teamID = try prompts.value(
                given: options.values["team-id"], flag: "--team-id",
                question: "Apple team id (10 characters, Membership details in Apple's developer account)",
                check: { APNsSettings.isAppleIdentifier($0) ? nil : "expected 10 upper-case letters or digits" })
            let bundleID = try prompts.value(
                given: options.values["bundle-id"], flag: "--bundle-id",
                question: "The app's bundle id, the APNs topic (e.g. com.example.chat)",
                check: {
                    $0.contains(".") && !$0.contains(" ") && !$0.hasPrefix(".")
                        ? nil : "expected a bundle id such as com.example.chat"
                })
            let environmentName = try prompts.value(
                given: options.values["environment"], flag: "--environment",
                question: "APNs environment: production (App Store, TestFlight) or sandbox (development builds)",
                default: APNsEnvironment.production.rawValue,
                check: { APNsEnvironment(rawValue: $0) == nil ? "expected production or sandbox" : nil })
            apns = InitPlan.APNs(
                keyFile: key.path, keyID: keyID, teamID: teamID, bundleID: bundleID,
                environment: APNsEnvironment(rawValue: environmentName) ?? .production)
        }
        var fcm: InitPlan.FCM?
        if !options.flags.contains("no-fcm"), let account = try serviceAccount(options, prompts: prompts) {
            fcm = InitPlan.FCM(serviceAccountFile: account.path, projectID: account.projectID)
        }
        guard apns != nil || fcm != nil else {
            throw InitError(
                "found no APNs key (AuthKey_*.p8) or service-account JSON in \(options.places.joined(separator: ", ")); give their paths or --p8 / --service-account"
            )
        }
        let suggested = Self.appName(bundleID: apns?.bundleID, projectID: fcm?.projectID)
        let app = try prompts.value(
            given: options.values["app"], flag: "--app",
            question: "Name of the app in Herald (events say \"app\": NAME)",
            default: suggested,
            check: { Event.isValidAppName($0) ? nil : "expected 1 to 64 letters, digits, '-' or '_'" })
        return InitPlan(
            app: app, apns: apns, fcm: fcm, endpoint: options.values["endpoint"], caFile: options.values["ca-file"])
    }

    func apnsKey(_ options: Options, prompts: Prompts) throws(InitError) -> FoundAPNsKey? {
        if let given = options.values["p8"] {
            guard FileManager.default.isReadableFile(atPath: given) else {
                throw InitError("--p8: cannot read '\(given)'")
            }
            let name = (given as NSString).lastPathComponent
            return FoundAPNsKey(
                path: (given as NSString).standardizingPath, keyID: CredentialDiscovery.keyID(fromFileName: name))
        }
        let found = CredentialDiscovery.apnsKeys(in: options.places)
        return try prompts.choose(found, what: "APNs keys", flag: "--p8", describe: \.path)
    }

    func serviceAccount(_ options: Options, prompts: Prompts) throws(InitError) -> FoundServiceAccount? {
        if let given = options.values["service-account"] {
            guard let account = CredentialDiscovery.serviceAccount(at: given) else {
                throw InitError(
                    "--service-account: '\(given)' is not a Google service-account JSON (\"type\": \"service_account\" with a project_id)"
                )
            }
            return FoundServiceAccount(
                path: (account.path as NSString).standardizingPath, projectID: account.projectID,
                clientEmail: account.clientEmail)
        }
        let found = CredentialDiscovery.serviceAccounts(in: options.places)
        return try prompts.choose(found, what: "service accounts", flag: "--service-account") {
            "\($0.path) (project \($0.projectID))"
        }
    }

    /// The default app name: the bundle id's last word, else the FCM project id, made valid.
    static func appName(bundleID: String?, projectID: String?) -> String {
        let source = bundleID.flatMap { $0.split(separator: ".").last.map(String.init) } ?? projectID ?? "app"
        let cleaned = String(
            source.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(64))
        return Event.isValidAppName(cleaned) ? cleaned : "app"
    }

    // MARK: Writing

    func write(_ plan: InitPlan, options: Options, environment: [String: String], console: any Console)
        async throws(InitError) -> Int32
    {
        let file = options.config
        let directory = ((file as NSString).standardizingPath as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? FileManager.default.currentDirectoryPath : directory
        let existing = FileManager.default.fileExists(atPath: file)
        let text: String
        if existing {
            guard let current = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw InitError("\(file): cannot be read as UTF-8 text")
            }
            let loaded: LoadedConfig
            do {
                loaded = try ConfigLoader.load(file: file, environment: environment, providers: RegisteredProviders.all)
            } catch {
                throw InitError(
                    "\(file) has problems; fix them first (herald check --config \(file)):\n\(error.description)")
            }
            if loaded.configuration.apps[plan.app] != nil {
                throw InitError("\(file) already has an app named '\(plan.app)'; choose another with --app")
            }
            text = try plan.extending(current, relativeTo: folder)
        } else {
            text = plan.newConfig(relativeTo: folder)
        }
        if options.flags.contains("dry-run") {
            console.out(
                existing
                    ? "# herald init would add under apps: in \(file):\n\(plan.appBlock(relativeTo: folder))"
                    : "# herald init would write \(file):\n\(text)")
            return ExitStatus.success
        }
        // Validated beside the real file (relative paths resolve the same), then moved over it.
        let staged = (folder as NSString).appendingPathComponent(".\((file as NSString).lastPathComponent).herald-init")
        do {
            try text.write(toFile: staged, atomically: true, encoding: .utf8)
        } catch {
            throw InitError("cannot write \(staged): \(error.localizedDescription)")
        }
        let validation = CapturedConsole()
        let valid = await CheckCommand().run(["--config", staged], environment: environment, console: validation)
        guard valid == ExitStatus.success else {
            try? FileManager.default.removeItem(atPath: staged)
            throw InitError(
                "the config herald init made does not pass herald check; \(file) is unchanged:\n\(validation.stderr)")
        }
        // The extended file keeps its permissions (a config may be readable by its service only).
        if existing, let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] {
            try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: staged)
        }
        // rename(2) replaces the file in one step: a reader sees the old config or the new one.
        guard rename(staged, file) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: staged)
            throw InitError("cannot write \(file): \(reason)")
        }
        var providers: [String] = []
        if let apns = plan.apns {
            providers.append(
                "apns \(apns.environment.rawValue) \(apns.bundleID) (key \(apns.keyID), team \(apns.teamID))")
        }
        if let fcm = plan.fcm { providers.append("fcm project \(fcm.projectID)") }
        console.out(
            "herald init: \(existing ? "added app '\(plan.app)' to" : "wrote") \(file): \(providers.joined(separator: "; "))"
        )
        console.out(
            "  route events to it with \"app\": \"\(plan.app)\" in the event, or a route's app: (docs/routing.md)")
        var check = ["--config", file]
        if !options.flags.contains("offline") { check.append("--online") }
        return await CheckCommand().run(check, environment: environment, console: console)
    }
}

/// Asks the questions `herald init` cannot answer from the files, or, when
/// not interactive, names the flag that answers it.
struct Prompts {
    let interactive: Bool
    let input: @Sendable () -> String?
    let console: any Console
    /// Answers that fail their check are asked again this many times.
    static let attempts = 3

    func value(
        given: String?, flag: String, question: String, default fallback: String? = nil,
        check: (String) -> String?
    ) throws(InitError) -> String {
        if let given {
            if let problem = check(given) { throw InitError("\(flag): \(problem), found '\(given)'") }
            return given
        }
        guard interactive else {
            if let fallback { return fallback }
            throw InitError("\(flag) is needed (--non-interactive asks nothing)")
        }
        for _ in 0..<Self.attempts {
            console.err(fallback.map { "\(question) [\($0)]:" } ?? "\(question):")
            guard let line = input() else { throw InitError("no answer for \(flag) (end of input)") }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty, let fallback { return fallback }
            if let problem = check(answer) { console.err("  \(problem)"); continue }
            return answer
        }
        throw InitError("no valid answer for \(flag) after \(Self.attempts) tries")
    }

    /// One of `found`: nil when there is none, the only one, or the one chosen by number.
    func choose<T>(_ found: [T], what: String, flag: String, describe: (T) -> String) throws(InitError) -> T? {
        guard found.count > 1 else { return found.first }
        let list = found.enumerated().map { "  \($0.offset + 1). \(describe($0.element))" }.joined(separator: "\n")
        guard interactive else { throw InitError("found several \(what); choose one with \(flag):\n\(list)") }
        for _ in 0..<Self.attempts {
            console.err("Found several \(what):\n\(list)\nWhich one? [1-\(found.count)]:")
            guard let line = input() else { throw InitError("no answer for \(flag) (end of input)") }
            if let number = Int(line.trimmingCharacters(in: .whitespaces)), (1...found.count).contains(number) {
                return found[number - 1]
            }
            console.err("  expected a number from 1 to \(found.count)")
        }
        throw InitError("no valid answer for \(flag) after \(Self.attempts) tries")
    }
}
