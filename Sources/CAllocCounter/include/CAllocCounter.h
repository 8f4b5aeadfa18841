#ifndef GESTURED_CALLOCCOUNTER_H
#define GESTURED_CALLOCCOUNTER_H
/* Counts heap allocations made by the calling thread, for `gesturectl bench`.
   counter.c defines malloc, calloc, realloc, posix_memalign, aligned_alloc and
   memalign for the program it is linked into, each counting one allocation and
   handing the call to glibc's own allocator (__libc_malloc, …): no LD_PRELOAD,
   no valgrind, a few nanoseconds per call. Linked into gesturectl only, never
   into gestured. Under a sanitizer (which brings its own malloc) it defines
   nothing and says so. */
#include <stdint.h>

/* Allocations made by this thread so far. */
uint64_t gestured_allocations(void);

/* 1 when allocations are counted, 0 in a sanitizer build. */
int gestured_allocations_counted(void);
#endif
