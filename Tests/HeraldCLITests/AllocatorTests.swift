import CJemalloc
import Testing

/// Linking the CLI links jemalloc, and jemalloc then serves every allocation
/// (Swift's, libcurl's, rabbitmq-c's), not only calls made to it by name.
@Suite struct AllocatorTests {
    /// Bytes this thread has allocated through jemalloc so far.
    private func allocatedByThisThread() -> UInt64? {
        var value: UInt64 = 0
        var length = MemoryLayout<UInt64>.size
        guard mallctl("thread.allocated", &value, &length, nil, 0) == 0 else { return nil }
        return value
    }

    @Test func aSwiftArrayIsAllocatedByJemalloc() throws {
        let before = try #require(allocatedByThisThread(), "jemalloc keeps no per-thread statistics")
        let bytes = [UInt8](repeating: 7, count: 4 << 20)
        let after = try #require(allocatedByThisThread())
        #expect(after - before >= UInt64(bytes.count), "a 4 MiB array did not go through jemalloc")
        #expect(bytes.last == 7)
    }
}
