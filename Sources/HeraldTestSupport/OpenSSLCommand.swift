/// Runs the `openssl` command line tool and turns a non-zero exit into a `TestPKIError`.
enum OpenSSLCommand {
    static func run(step: String, _ arguments: [String]) throws(TestPKIError) {
        let run: ToolRun
        do {
            run = try runToolNow("/usr/bin/openssl", arguments)
        } catch {
            throw TestPKIError(step: step, output: error.description)
        }
        guard run.status == 0 else { throw TestPKIError(step: step, output: run.output) }
    }
}
