#include "CHostCalls.h"

#include <errno.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

/* Linux's generic system call table numbers cachestat 451 on every architecture
   (include/uapi/asm-generic/unistd.h, arch/x86/entry/syscalls/syscall_64.tbl, 6.5); older C
   library headers do not define it. */
#if !defined(__NR_cachestat) && (defined(__x86_64__) || defined(__aarch64__))
#define __NR_cachestat 451
#endif

/* The kernel's structures (include/uapi/linux/mman.h, 6.5). */
struct pressurelab_cachestat_range {
    uint64_t off;
    uint64_t len;
};

struct pressurelab_cachestat {
    uint64_t nr_cache;
    uint64_t nr_dirty;
    uint64_t nr_writeback;
    uint64_t nr_evicted;
    uint64_t nr_recently_evicted;
};
#endif

int pressurelab_cachestat(int fd, uint64_t offset, uint64_t length, uint64_t *cached) {
#if defined(__linux__) && defined(__NR_cachestat)
    struct pressurelab_cachestat_range range = { offset, length };
    struct pressurelab_cachestat stat = { 0, 0, 0, 0, 0 };
    long result = syscall(__NR_cachestat, (unsigned int)fd, &range, &stat, 0U);
    if (result != 0) return -1;
    *cached = stat.nr_cache;
    return 0;
#else
    (void)fd; (void)offset; (void)length; (void)cached;
    errno = ENOSYS;
    return -1;
#endif
}
