/*
 * The floor of a one-view tree against the raw block it stands for, in C with jemalloc:
 * "raw" is malloc + memset + free of the view's bytes; "with a record" adds what any tree
 * needs besides the view, one small allocation (96 bytes, written) made before the view's
 * block and freed after it. No Swift runtime: what this prints is the least a tree with a
 * bookkeeping allocation of its own can cost against the raw block (Benchmarks/README.md,
 * "Issue 30, fifth round").
 *
 *     gcc -O2 -o /tmp/one_view_floor Benchmarks/Scripts/one_view_floor.c -ljemalloc
 *     /tmp/one_view_floor 256 && /tmp/one_view_floor 4096
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* One view's block, written and freed, `n` times. */
__attribute__((noinline)) static void raw(int n, size_t bytes) {
    for (int i = 0; i < n; i++) {
        void *block = malloc(bytes);
        memset(block, i * 31 + 0xA5, bytes);
        __asm__ volatile("" : : "r"(block) : "memory");
        free(block);
    }
}

/* The same with a record of `record` bytes that points at the block. */
__attribute__((noinline)) static void with_record(int n, size_t bytes, size_t record) {
    for (int i = 0; i < n; i++) {
        void **header = malloc(record);
        memset(header, 0, record);
        void *block = malloc(bytes);
        memset(block, i * 31 + 0xA5, bytes);
        header[2] = block;
        __asm__ volatile("" : : "r"(header), "r"(block) : "memory");
        free(header[2]);
        free(header);
    }
}

int main(int argc, char **argv) {
    size_t bytes = argc > 1 ? (size_t)atoi(argv[1]) : 256;
    size_t record = argc > 2 ? (size_t)atoi(argv[2]) : 96;
    const int n = 1000;
    uint64_t best_raw = UINT64_MAX, best_record = UINT64_MAX;
    for (int round = 0; round < 200; round++) {  /* interleaved, best of 200 each */
        uint64_t start = now_ns();
        raw(n, bytes);
        uint64_t middle = now_ns();
        with_record(n, bytes, record);
        uint64_t end = now_ns();
        if (middle - start < best_raw) best_raw = middle - start;
        if (end - middle < best_record) best_record = end - middle;
    }
    printf("%zu B: raw %.1f ns, with a %zu-byte record %.1f ns: %.0f%%\n", bytes, best_raw / (double)n, record,
           best_record / (double)n, 100.0 * best_record / best_raw);
    return 0;
}
