#ifndef PRESSURELAB_CLZ4_SHIM_H
#define PRESSURELAB_CLZ4_SHIM_H

/* LZ4 (liblz4-dev): the fast in-RAM compressor of zram and of XNU's hybrid codec.
   Only PressureLabHeap imports this module. */
#include <lz4.h>

#endif
