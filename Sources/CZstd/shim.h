#ifndef PRESSURELAB_CZSTD_SHIM_H
#define PRESSURELAB_CZSTD_SHIM_H

/* Zstandard (libzstd-dev): a denser, slower in-RAM compressor (zram's zstd backend).
   Only PressureLabHeap imports this module. */
#include <zstd.h>

#endif
