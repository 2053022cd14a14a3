#!/usr/bin/env python3
"""Splits a run's time between the memory work it simulates and the simulator's own costs.

Reads `perf script` output (samples with call stacks) on standard input:

    perf record -F 10000 --call-graph dwarf,16384 -o perf.data .build/release/pressurelab run scenarios/long-random.yaml --policy ios6
    perf script -i perf.data | python3 Benchmarks/Scripts/time_split.py

Each sample goes to the first category its stack matches, in the order below.
"""
import sys
from collections import Counter

MEMORY_WRITES = ("memset", "memmove", "memcpy")
CODECS = ("LZ4_", "ZSTD_", "liblz4", "libzstd")


# Syscalls that read or write the run's files. On 6.x kernels the syscall table inlines the
# `__x64_sys_read`/`__x64_sys_write` wrappers, so those stacks name only `ksys_read`/`ksys_write`
# (measured on 6.18: every read and write sample): matching the wrappers alone put the
# simulation's file reads and writes under "other system calls".
FILE_SYSCALLS = ("__x64_sys_openat", "__x64_sys_read", "__x64_sys_write", "ksys_read", "ksys_write",
                 "__x64_sys_close", "newfstatat", "__x64_sys_rename")


def object_of(frames):
    """The leaf's object file: perf prints a function inlined at the sampled address as a frame
    of its own, marked `(inlined)` instead of naming its object, so the leaf's object is the
    first frame that is not inlined (a sample in simulator code inlined into a caller, or in
    jemalloc's inlined helpers, otherwise fell to "other")."""
    return next((frame for frame in frames if not frame.endswith("(inlined)")), frames[0])


def classify(frames):
    text = " ".join(frames)
    leaf = frames[0]
    leaf_object = object_of(frames)
    if "execve" in text or "_dl_" in text or "ld-linux" in leaf:
        return "start-up", "process start-up (exec, dynamic linking)"
    if any(name in text for name in CODECS):
        # The codecs' own work, their per-call state set-up (LZ4_initStream's memset of its
        # 16 KiB table) included: compressing real bytes is the modelled work. Stacks through
        # liblz4 only name it with DWARF unwinding (`perf record --call-graph dwarf`).
        return "memory", "compression and decompression (LZ4, Zstandard)"
    if "exc_page_fault" in text and any(name in text for name in MEMORY_WRITES):
        return "memory", "page faults under payload writes (first touch)"
    if any(name in leaf for name in MEMORY_WRITES):
        return "memory", "payload writes (memset/memcpy)"
    if "entry_SYSCALL" in text:
        if "__x64_sys_madvise" in text or "__x64_sys_munmap" in text:
            return "memory", "returning freed pages (madvise/munmap)"
        if "libjemalloc" in text and "mmap" in text:
            # jemalloc mapping new extents for the payloads (its frames have no symbols).
            return "memory", "allocator (jemalloc)"
        if "fsync" in text:
            return "I/O", "fsync (restoration archives)"
        if any(name in text for name in FILE_SYSCALLS):
            return "I/O", "file I/O (view descriptions, models, archives, freezer)"
        if "TemporaryFiles" in text:
            # Sweeping stale run directories at start and removing the run's files at exit:
            # the simulator's housekeeping, not I/O the simulation models.
            return "other", "run storage housekeeping (sweep, removal at exit)"
        return "other", "other system calls"
    if "jemalloc" in leaf_object:
        return "memory", "allocator (jemalloc)"
    if "ScenarioLoader" in text or "ProfileLoader" in text:
        return "other", "loading the scenario and profile (YAML)"
    if "exc_page_fault" in text:
        return "other", "page faults (other)"
    if "JSON" in text or "Base64" in text:
        return "bookkeeping", "encoding restoration archives (JSON, base64)"
    if "libswiftCore" in leaf_object:
        return "bookkeeping", "Swift runtime (reference counting, metadata)"
    if "pressurelab" in leaf_object:
        return "bookkeeping", "simulator code"
    return "other", "other"


def main():
    groups, categories = Counter(), Counter()
    for sample in sys.stdin.read().split("\n\n"):
        frames = [line.strip() for line in sample.strip().split("\n")[1:] if line.strip()]
        if not frames:
            continue
        group, category = classify(frames)
        groups[group] += 1
        categories[(group, category)] += 1
    total = sum(groups.values())
    if total == 0:
        sys.exit("no samples: pipe `perf script` output of a `perf record -g` run")
    for group, count in groups.most_common():
        print(f"{100 * count / total:5.1f}%  {group}")
        for (owner, category), inner in categories.most_common():
            if owner == group:
                print(f"         {100 * inner / total:5.1f}%  {category}")
    print(f"{total} samples")


if __name__ == "__main__":
    main()
