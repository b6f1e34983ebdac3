import Foundation
import HeraldCLI

// A peer that disappears mid-write (a broker, a provider, a metrics scraper)
// must cost one connection, not the process: writes then fail with EPIPE.
signal(SIGPIPE, SIG_IGN)

let status = await HeraldCommandLine().run(
    Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    console: StandardConsole())
exit(status)
