#include "CJemallocOptions.h"

/* Four of jemalloc 5.3's defaults make a simulator that frees whole apps at a time fault its
   memory in again and again, for nothing (docs/limits.md, "The allocator's options"):

   - muzzy_decay_ms:-1. A large extent freed and coalesced to at least oversize_threshold
     (8 MiB) is purged at once (MADV_DONTNEED) unless a decay time is -1 (src/extent.c,
     extent_record and extent_may_force_decay): a killed app's heap was given back to the
     kernel and faulted in again by the next app.
   - dirty_decay_ms:-1. Freed pages went back lazily (MADV_FREE) 10 s after they were freed,
     and a phone experiment takes the same memory again and again for minutes: they stay
     dirty for reuse now. What a process keeps beyond what it uses is bounded where it
     matters by an explicit purge (the device experiments' spare allowance, and between
     configurations), which still returns every free page.
   - lg_extent_max_active_fit:16. A dirty extent is split for a request only when it is at
     most 2^6 times the request (src/extent.c, extent_recycle_extract; the default in
     include/jemalloc/internal/extent.h): a freed app's heap was not reused for small slabs
     and new pages were mapped instead. 2^16 lets a 4 KiB page come from a freed region of
     up to 256 MiB.
   - oversize_threshold:0. Requests of 8 MiB or more went to a dedicated arena that keeps
     nothing it frees (its decay times are 0); a value outside the large size classes turns
     that arena off (the option's entry in jemalloc's manual), so a large block freed stays
     for reuse like any other.

   The symbol is the one jemalloc reads its compiled-in options from: je_malloc_conf, which
   jemalloc's header names malloc_conf on a build without a prefix (Debian's) and keeps as it
   is on a build with one (JEMALLOC_NO_DEMANGLE: the stable je_ names). Such a build reads its
   environment variable as JE_MALLOC_CONF instead of MALLOC_CONF. */
#define JEMALLOC_NO_DEMANGLE
#include <jemalloc/jemalloc.h>

const char *je_malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1,lg_extent_max_active_fit:16,oversize_threshold:0";

const char *pressurelab_jemalloc_options(void) {
    return je_malloc_conf;
}
