import Glibc

/// The standard `process_*` metrics every Prometheus client library exports
/// (CPU seconds, resident and virtual memory, open and maximum file
/// descriptors, start time), read from `/proc/self` at each scrape: the
/// figures Herald's CPU and memory claims are checked against.
public enum ProcessMetrics {
    /// One reading of `/proc/self`; a field that could not be read is nil and
    /// its metric is left out of that scrape.
    struct Reading {
        var cpuSeconds: Double?
        var residentBytes: Double?
        var virtualBytes: Double?
        var startTimeSeconds: Double?
        var openFileDescriptors: Double?
        var maxFileDescriptors: Double?
    }

    /// Registers the collector on `registry`.
    public static func register(on registry: MetricsRegistry) {
        registry.collect {
            let reading = sample()
            return [
                SampledMetric(
                    name: "process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds.",
                    kind: "counter", value: reading.cpuSeconds),
                SampledMetric(
                    name: "process_resident_memory_bytes", help: "Resident memory size in bytes.",
                    kind: "gauge", value: reading.residentBytes),
                SampledMetric(
                    name: "process_virtual_memory_bytes", help: "Virtual memory size in bytes.",
                    kind: "gauge", value: reading.virtualBytes),
                SampledMetric(
                    name: "process_start_time_seconds", help: "Start time of the process since unix epoch in seconds.",
                    kind: "gauge", value: reading.startTimeSeconds),
                SampledMetric(
                    name: "process_open_fds", help: "Number of open file descriptors.",
                    kind: "gauge", value: reading.openFileDescriptors),
                SampledMetric(
                    name: "process_max_fds", help: "Maximum number of open file descriptors.",
                    kind: "gauge", value: reading.maxFileDescriptors),
            ]
        }
    }

    static func sample() -> Reading {
        var reading = Reading()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = contents(of: "/proc/self/stat"), let fields = statFields(stat), ticks > 0 {
            // proc(5) numbers the fields from 1 (pid); `fields` starts at field 3 (state).
            func field(_ number: Int) -> Double? {
                let index = number - 3
                return index < fields.count ? Double(fields[index]) : nil
            }
            if let user = field(14), let system = field(15) { reading.cpuSeconds = (user + system) / ticks }
            reading.virtualBytes = field(23)
            if let pages = field(24) { reading.residentBytes = pages * pageSize }
            if let started = field(22), let boot = bootTime() { reading.startTimeSeconds = boot + started / ticks }
        }
        reading.openFileDescriptors = openFileDescriptorCount().map(Double.init)
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { reading.maxFileDescriptors = Double(limit.rlim_cur) }
        return reading
    }

    /// The fields of `/proc/self/stat` after the command name, which is in
    /// parentheses and may itself hold spaces and parentheses.
    static func statFields(_ stat: String) -> [Substring]? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
    }

    /// The boot time from `/proc/stat` (`btime`), seconds since the epoch.
    static func bootTime() -> Double? {
        guard let stat = contents(of: "/proc/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count).trimmingPrefix(" "))
        }
        return nil
    }

    /// Entries of `/proc/self/fd`, less the descriptor the listing itself holds open.
    static func openFileDescriptorCount() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { count += 1 }
        }
        return max(0, count - 1)
    }

    /// A small `/proc` file read whole (their size reads as 0, so read until EOF).
    static func contents(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { return nil }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
