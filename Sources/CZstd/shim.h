#ifndef PRESSURELAB_CZSTD_SHIM_H
#define PRESSURELAB_CZSTD_SHIM_H

/* Zstandard (libzstd-dev): a denser, slower in-RAM compressor (zram's zstd backend).
   Only PressureLabHeap imports this module. The static-linking section of zstd.h declares
   the contexts on caller-provided memory (ZSTD_initStaticCCtx, ZSTD_initStaticDCtx), which
   libzstd.so exports; they keep the codec's state out of the measured heap. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#endif
