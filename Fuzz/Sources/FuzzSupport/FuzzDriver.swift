import CLibFuzzerDriver

#if canImport(Glibc)
import Glibc
#endif

/// Starts libFuzzer from a fuzz target's `main.swift`.
///
/// SwiftPM gives every executable its own `main`, so libFuzzer's never runs;
/// each fuzz target's top-level code calls ``run(_:)`` with the code under
/// test instead, and libFuzzer then owns the process (its flags, corpus
/// directories, crash files). A crash, a trap or an AddressSanitizer report
/// inside `body` is a finding.
public enum FuzzDriver {
    /// The code under test; libFuzzer calls it on one thread, one input at a time.
    nonisolated(unsafe) private static var body: ((UnsafeRawBufferPointer) -> Void)?

    /// Runs libFuzzer with the process's arguments and exits with its status.
    public static func run(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        Self.body = body
        let status = herald_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
            FuzzDriver.body?(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
        exit(status)
    }
}
