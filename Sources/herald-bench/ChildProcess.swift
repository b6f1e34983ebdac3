import Glibc

/// A child process started with posix_spawn, its stdin and stdout on pipes,
/// reaped with wait4 so its exact CPU time is known.
final class ChildProcess {
    let pid: pid_t
    private(set) var stdinFD: Int32
    let stdoutFD: Int32

    init?(_ arguments: [String]) {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addclose(&actions, input[1])
        posix_spawn_file_actions_addclose(&actions, output[0])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, arguments[0], &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard rc == 0 else {
            close(input[1])
            close(output[0])
            return nil
        }
        pid = child
        stdinFD = input[1]
        stdoutFD = output[0]
    }

    /// Reads one line from the child's stdout (blocking; used before timing starts).
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(stdoutFD, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads stdout to EOF.
    func readAll() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(stdoutFD, &buffer, buffer.count)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func closeStdin() {
        guard stdinFD >= 0 else { return }
        close(stdinFD)
        stdinFD = -1
    }

    /// Waits for exit; returns (exit status, CPU seconds user+system).
    func wait() -> (status: Int32, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        close(stdoutFD)
        closeStdin()
        return (status, CPUTime.seconds(usage))
    }

    /// CPU seconds the still-running child has used so far (from /proc, 10 ms resolution).
    func cpuSecondsSoFar() -> Double {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
