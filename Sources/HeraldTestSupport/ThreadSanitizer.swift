import Glibc

/// Whether this test process runs under ThreadSanitizer (`scripts/test-tsan`),
/// where instrumented code runs several times slower: a test sizes its load
/// by it (fewer devices, the same behaviour proven), never its assertions.
public enum ThreadSanitizer {
    /// True when the TSan runtime is linked in (its `__tsan_init` is there to find).
    public static let isActive: Bool = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil
}
