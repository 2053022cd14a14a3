#ifndef PRESSURELAB_CJEMALLOC_OPTIONS_H
#define PRESSURELAB_CJEMALLOC_OPTIONS_H

/* The jemalloc options PressureLab compiles into every program that links PressureLabHeap
   (docs/limits.md, "The allocator's options"). jemalloc reads them once, at its first
   allocation; the MALLOC_CONF environment variable (JE_MALLOC_CONF for a jemalloc built with
   the je_ prefix), read after them, still overrides each. */
const char *pressurelab_jemalloc_options(void);

#endif
