#ifndef PRESSURELAB_CLIBFUZZER_H
#define PRESSURELAB_CLIBFUZZER_H

/* libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). SwiftPM renames an
   executable's entry point and links it as `main`, so libFuzzer's own `main` is never the
   one that runs: each fuzz target's `@main` calls the driver itself. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *_Nonnull argc, char *_Nullable *_Nonnull *_Nonnull argv,
                        int (*_Nonnull callback)(const uint8_t *_Nonnull data, size_t size));

#endif
