import Foundation
import HeraldCLI

let status = await HeraldCommandLine().run(
    Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    console: StandardConsole())
exit(status)
