#include <errno.h>
#include <stddef.h>
#include "CAllocCounter.h"

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#    define GESTURED_NO_ALLOC_COUNTER 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define GESTURED_NO_ALLOC_COUNTER 1
#endif

#ifdef GESTURED_NO_ALLOC_COUNTER

uint64_t gestured_allocations(void) { return 0; }
int gestured_allocations_counted(void) { return 0; }

#else

/* glibc's allocator under its own names: what malloc is when nobody replaces it. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

/* Per thread, so counting costs no atomic and the figure is the calling
   thread's own (the benchmark runs on one thread). */
static __thread uint64_t allocations __attribute__((tls_model("initial-exec")));

uint64_t gestured_allocations(void) { return allocations; }
int gestured_allocations_counted(void) { return 1; }

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *p, size_t size) {
    allocations++;
    return __libc_realloc(p, size);
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    allocations++;
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

#endif
