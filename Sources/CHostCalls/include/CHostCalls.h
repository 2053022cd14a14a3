#ifndef PRESSURELAB_CHOSTCALLS_H
#define PRESSURELAB_CHOSTCALLS_H

#include <stdint.h>

/* System calls Swift cannot make directly (the C library's syscall() is variadic), each
   behind a prefixed function; PressureLabHeap is the only caller. */

/* cachestat(2) (Linux 6.5 and later): the pages of the file open at `fd` in the range
   [offset, offset + length) that are in the page cache, in one call. Returns 0 and sets
   *cached, or -1 with errno (ENOSYS where the kernel or this build has no cachestat). */
int pressurelab_cachestat(int fd, uint64_t offset, uint64_t length, uint64_t *cached);

#endif
