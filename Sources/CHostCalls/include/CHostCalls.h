#ifndef PRESSURELAB_CHOSTCALLS_H
#define PRESSURELAB_CHOSTCALLS_H

#include <stdint.h>

/* System calls Swift cannot make directly (the C library's syscall() is variadic), each
   behind a prefixed function; PressureLabHeap is the only caller. */

/* cachestat(2) (Linux 6.5 and later): the pages of the file open at `fd` in the range
   [offset, offset + length) that are in the page cache, in one call. Returns 0 and sets
   *cached, or -1 with errno (ENOSYS where the kernel or this build has no cachestat). */
int pressurelab_cachestat(int fd, uint64_t offset, uint64_t length, uint64_t *cached);

/* The open flag O_DIRECT (reads and writes that bypass the page cache), whose value differs
   between architectures and which the C library defines only under _GNU_SOURCE; 0 where the
   host has none (macOS: F_NOCACHE is a different call). */
int pressurelab_open_direct_flag(void);

#endif
