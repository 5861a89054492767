#!/bin/sh
# The sanitizer's verdict cache (check/sanitizer.hpp): a clean case of the same programs and launch is
# not simulated again; a changed kernel source is; a failing case never comes from the cache.
# usage: sanitize_verdict_cache.sh PLUMBLINE SOURCE_DIR
set -u
B=$1 S=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export PLUMBLINE_CACHE_DIR=$T/cache
cp "$S/proptests/kernels/sum_handoff.cl" "$S/proptests/kernels/sum_handoff.plan" "$T/"
fail() { echo "FAIL: $*"; exit 1; }
"$B" check sum --plan "$T/sum_handoff.plan" --sanitize > "$T/1.log" 2>&1 || fail "first run: $(cat "$T/1.log")"
grep -q "not simulated again" "$T/1.log" && fail "the first run found verdicts in an empty cache"
"$B" check sum --plan "$T/sum_handoff.plan" --sanitize > "$T/2.log" 2>&1 || fail "second run: $(cat "$T/2.log")"
grep -q "cases clean in an earlier run of the same programs and launch, not simulated again" "$T/2.log" || fail "the second run simulated again: $(cat "$T/2.log")"
grep -q "set aside as the plan declares" "$T/2.log" || fail "a cached verdict lost its exemptions"
echo "// changed" >> "$T/sum_handoff.cl"
"$B" check sum --plan "$T/sum_handoff.plan" --sanitize > "$T/3.log" 2>&1 || fail "third run: $(cat "$T/3.log")"
grep -q "not simulated again" "$T/3.log" && fail "a changed kernel source took the old verdicts"
for i in 1 2; do
  "$B" check sum --plan "$T/sum_handoff.plan" --define GLOBAL_FENCE=0 --sanitize > "$T/race$i.log" 2>&1
  test $? -eq 1 || fail "the racy kernel passed on run $i: $(cat "$T/race$i.log")"
  grep -q "\[race\]" "$T/race$i.log" || fail "no race verdict on run $i"
done
echo "verdict cache: reused, invalidated by a source change, never for a failure"
