#!/usr/bin/env bash
# Runs libFuzzer with AddressSanitizer on one fuzz target (or all) for SECONDS each, on a copy of
# corpus/<target>/, then merges the inputs that reach new coverage back into corpus/<target>/ and prints
# exec/s and coverage. A crash is left in the temporary folder printed at the end: fix it, then keep
# the input as corpus/crashers/<target>-<what it exposed>.
#
#   corpus/fuzz.sh TARGET|all SECONDS
#   FUZZ_FLAGS="-len_control=0 -max_len=2048" corpus/fuzz.sh jar 300    # more libFuzzer flags
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 2 ]; then
    echo "usage: corpus/fuzz.sh TARGET|all SECONDS   (targets: the folders of corpus/ but crashers)" >&2
    exit 2
fi
if [ "$1" = all ]; then
    targets=()
    for folder in corpus/*/; do
        name="$(basename "$folder")"
        [ "$name" = crashers ] || targets+=("$name")
    done
else
    targets=("$1")
fi
seconds="$2"

flags=(-c release --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING)
swift build "${flags[@]}" --product CookiesFuzz
fuzzer="$(swift build "${flags[@]}" --show-bin-path)/CookiesFuzz"
export SWIFT_BACKTRACE=enable=no

status=0
for target in "${targets[@]}"; do
    [ -d "corpus/$target" ] || { echo "no corpus/$target/" >&2; exit 2; }
    work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$target.XXXXXX")"
    mkdir "$work/corpus" "$work/crashes"
    cp "corpus/$target"/* "$work/corpus/"
    dict=()
    [ -f "corpus/$target.dict" ] && dict=("-dict=corpus/$target.dict")
    echo "== $target: ${seconds}s in $work"
    run=0
    # shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
    FUZZ_TARGET="$target" "$fuzzer" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$work/crashes/" ${FUZZ_FLAGS:-} "$work/corpus" >"$work/log" 2>&1 || run=$?
    # Only inputs that reach new edges are copied back (a greedy set cover, hit counts ignored, so that
    # the corpus stays small); libFuzzer names them by content hash.
    before="$(ls "corpus/$target" | wc -l)"
    FUZZ_TARGET="$target" "$fuzzer" -set_cover_merge=1 -use_counters=0 "corpus/$target" "$work/corpus" \
        >"$work/merge.log" 2>&1
    after="$(ls "corpus/$target" | wc -l)"
    execs="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")"
    final="$(grep -E '^#[0-9]+.*(DONE|cov:)' "$work/log" | tail -1)"
    echo "   exec/s: ${execs:-?}   final: ${final:-?}"
    echo "   corpus/$target: $before -> $after files"
    if [ "$run" -ne 0 ] || [ -n "$(ls "$work/crashes")" ]; then
        echo "   CRASH (exit $run): $(ls "$work/crashes" | tr '\n' ' ')  log: $work/log"
        grep -E 'invariant violated|Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer' "$work/log" | head -3 | sed 's/^/   /'
        status=1
    fi
done
exit "$status"
