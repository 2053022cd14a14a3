#ifndef PRESSURELAB_CLZ4_SHIM_H
#define PRESSURELAB_CLZ4_SHIM_H

/* LZ4 (liblz4-dev): the fast in-RAM compressor of zram and of XNU's hybrid codec.
   Only PressureLabHeap imports this module. The static-linking section of lz4.h declares
   LZ4_compress_fast_extState_fastReset (used on Linux, where liblz4.a is linked: see
   Package.swift). */
#define LZ4_STATIC_LINKING_ONLY
#include <lz4.h>

#endif
