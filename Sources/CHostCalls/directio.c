/* O_DIRECT is defined by the C library only under _GNU_SOURCE, and its value differs between
   architectures (x86-64 and arm64 differ), so Swift reads it from here. */
#define _GNU_SOURCE
#include "CHostCalls.h"

#include <fcntl.h>

int pressurelab_open_direct_flag(void) {
#if defined(__linux__) && defined(O_DIRECT)
    return O_DIRECT;
#else
    return 0;
#endif
}
