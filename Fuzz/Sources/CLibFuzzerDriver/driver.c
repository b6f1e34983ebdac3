#include "CLibFuzzerDriver.h"

#include <stdlib.h>

// Defined by libclang_rt.fuzzer (linked by -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int herald_fuzz_run(int argc, char **argv, HeraldFuzzCallback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}

// libclang_rt.fuzzer's own `main`, which SwiftPM's `main` replaces, refers to
// this symbol; it is never called, since inputs go to the callback given to
// herald_fuzz_run.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    (void)data;
    (void)size;
    abort();
}
