import Foundation
@testable import HeraldObservability
import Testing

@Suite struct ProcessMetricsTests {
    @Test func statFieldsSkipACommandNameWithSpacesAndParentheses() throws {
        let fields = try #require(
            ProcessMetrics.statFields("4242 (a (b) c) S 1 4242 4242 0 -1 4194560 10 0 0 0 17 3 0 0 20 0"))
        #expect(fields.first == "S")
        // proc(5) field 14 is utime, 15 stime: index 11 and 12 from field 3.
        #expect(fields[11] == "17" && fields[12] == "3")
    }

    @Test func aSampleReadsThisProcess() throws {
        let reading = ProcessMetrics.sample()
        let resident = try #require(reading.residentBytes)
        #expect(resident > 1_000_000, "resident \(resident) bytes")
        let started = try #require(reading.startTimeSeconds)
        let now = Date().timeIntervalSince1970
        #expect(started <= now + 1 && started > now - 86_400, "started \(started), now \(now)")
        let opened = try #require(reading.openFileDescriptors)
        // stdin, stdout and stderr at least (other tests open and close files meanwhile).
        #expect(opened >= 3, "open fds \(opened)")
        #expect(try #require(reading.maxFileDescriptors) >= opened)
        #expect(try #require(reading.cpuSeconds) > 0)
    }

    @Test func theRegistryRendersThemAsPrometheusDoes() {
        let metrics = HeraldMetrics(version: "test")
        let text = metrics.registry.render()
        #expect(text.contains("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total "))
        #expect(text.contains("# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes "))
        #expect(text.contains("# TYPE process_start_time_seconds gauge\n"))
    }
}
