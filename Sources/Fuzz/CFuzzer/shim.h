#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). Declared here,
   used only when the fuzz targets are built with -DFUZZING. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
