#ifndef PRESSURELAB_CJEMALLOC_SHIM_H
#define PRESSURELAB_CJEMALLOC_SHIM_H

/* The one door to jemalloc (libjemalloc-dev). Only PressureLabHeap imports this module.
   Linking libjemalloc makes it the process allocator: its unprefixed malloc/free
   replace the C library's. */
#include <jemalloc/jemalloc.h>

#endif
