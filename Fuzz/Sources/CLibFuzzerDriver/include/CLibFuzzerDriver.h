// libFuzzer's entry point for programs that keep their own `main`.
//
// SwiftPM links every executable with `main` bound to the module's own entry
// point, so the `main` inside libclang_rt.fuzzer never runs. A fuzz target
// therefore starts libFuzzer itself by calling `LLVMFuzzerRunDriver`, which
// parses the libFuzzer command line and calls `callback` once per input.
#ifndef HERALD_CLIBFUZZERDRIVER_H
#define HERALD_CLIBFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

typedef int (*HeraldFuzzCallback)(const uint8_t *data, size_t size);

/// Runs libFuzzer with the process's arguments; returns its exit status.
int herald_fuzz_run(int argc, char **argv, HeraldFuzzCallback callback);

#endif
