#!/usr/bin/env bash
# Fuzzes one reader of PressureLab's input files with libFuzzer for a bounded time:
#
#   bash scripts/fuzz.sh TARGET SECONDS
#   bash scripts/fuzz.sh --all SECONDS     (each target in turn, stopping at the first failure)
#
# TARGET is one of the fuzz targets listed in Fuzz/targets.txt (the one list of them). The target is built
# (release, -sanitize=fuzzer; no AddressSanitizer: the process allocator must stay jemalloc)
# and run with its corpus in Fuzz/.build/work/TARGET/corpus, started from
# Fuzz/Corpus/TARGET/seed and .../regressions. An input that crashes, hangs (over 1 s) or
# takes over 2 GiB is written into Fuzz/Corpus/TARGET/regressions/ and the script exits 1.
# At the end it prints the executions, exec/s and libFuzzer's final coverage (cov, ft).
set -euo pipefail
cd "$(dirname "$0")/.."

# Fuzz/targets.txt: one name a line; '#' comments and blank lines skipped.
targets() { sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' Fuzz/targets.txt; }
usage() { echo "usage: bash scripts/fuzz.sh TARGET|--all SECONDS (targets, from Fuzz/targets.txt: $(targets | paste -sd ' '))" >&2; exit 64; }
[ $# -eq 2 ] || usage
target=$1 seconds=$2
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || usage
if [ "$target" = "--all" ]; then
  for each in $(targets); do bash scripts/fuzz.sh "$each" "$seconds"; done
  exit 0
fi
targets | grep -qxF -- "$target" || usage
[ -d "Fuzz/Corpus/$target/seed" ] || { echo "fuzz: $target has no seeds in Fuzz/Corpus/$target/seed" >&2; exit 64; }

bash scripts/setup.sh
if ! command -v swift >/dev/null 2>&1; then export PATH=/opt/swift/usr/bin:$PATH; fi

# -sanitize=fuzzer instruments every Swift module (coverage for libFuzzer) and links libFuzzer;
# -fsanitize=fuzzer-no-link instruments the C targets (libyaml, under Yams) without linking it twice.
# The manifest reads Fuzz/targets.txt, which SwiftPM's manifest cache does not watch: a cached
# evaluation from before a target was added would not know it ("no product named ..."), so
# the manifest is evaluated afresh each time (--manifest-cache none).
build_flags=(-c release --package-path Fuzz --product "$target" --manifest-cache none
             -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link)
echo "fuzz: building $target" >&2
# SwiftPM re-plans a build when the root package's files change, not its path dependency's:
# drop the plan so that files added to the main package since the last fuzz build are seen.
rm -f Fuzz/.build/release.yaml
swift build "${build_flags[@]}" >&2
binary="$(swift build "${build_flags[@]}" --show-bin-path)/$target"

work="Fuzz/.build/work/$target"
regressions="Fuzz/Corpus/$target/regressions"
mkdir -p "$work/corpus" "$regressions"
log="$work/fuzz.log"
dictionary=()
[ -f "Fuzz/Dictionaries/$target.dict" ] && dictionary=("-dict=Fuzz/Dictionaries/$target.dict")

before=$(ls "$regressions" | sort)
echo "fuzz: running $target for ${seconds}s (log: $log)" >&2
status=0
# Swift's backtracer would take the crash signal first, and libFuzzer then saves no input.
SWIFT_BACKTRACE=enable=no "$binary" "$work/corpus" "Fuzz/Corpus/$target/seed" "$regressions" \
  -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$regressions/" "${dictionary[@]}" >"$log" 2>&1 || status=$?

# The last status line (DONE, or the last pulse/NEW before a crash) carries cov and ft.
final=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$final")
ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$final")
runs=$(sed -nE 's/^stat::number_of_executed_units: ([0-9]+)/\1/p' "$log")
rate=$(sed -nE 's/^stat::average_exec_per_sec: +([0-9]+)/\1/p' "$log")
corpus=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]+).*/\1/p' <<<"$final")
echo "fuzz: $target: ${runs:-?} executions in ${seconds}s, ${rate:-?} exec/s, cov: ${cov:-?} ft: ${ft:-?}, corpus ${corpus:-?}"

found=$(comm -13 <(echo "$before") <(ls "$regressions" | sort) | sed '/^$/d')
if [ "$status" -ne 0 ] || [ -n "$found" ]; then
  echo "fuzz: $target FAILED (libFuzzer exit $status); the end of its log:" >&2
  tail -n 40 "$log" >&2
  for file in $found; do echo "fuzz: saved input: $regressions/$file" >&2; done
  exit 1
fi
