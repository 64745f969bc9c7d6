#!/usr/bin/env bash
# `npm run test:under-load`: the CI check run the way a busy shared CI box runs it.
#
# Clones this repository's committed HEAD afresh for every run and runs `bash .ci/run` there
# (the whole install and `npm test`, exactly as CI does), RUNS times in a row, while LOAD other
# processes (`yes > /dev/null`) keep the cores busy. The load is started before the first run and
# stopped when the script ends, however it ends. It prints each run's result and time, and stops
# at the first failure (the clone is kept for its logs).
#
#   RUNS=3 LOAD=2 bash scripts/ci-under-load.sh      # the issue-25 check (the defaults)
#   RUNS=1 LOAD=0 bash scripts/ci-under-load.sh      # one run on a quiet machine, timed
#
# Uncommitted changes are not tested: commit first. Each clone lives under $TMPDIR (or /tmp) and is
# removed after a passing run.
set -uo pipefail

RUNS="${RUNS:-3}"
LOAD="${LOAD:-2}"
here="$(cd "$(dirname "$0")/.." && pwd)"
case "$RUNS$LOAD" in *[!0-9]*) echo "RUNS and LOAD must be whole numbers (RUNS=3 LOAD=2)." >&2; exit 2 ;; esac
[ "$RUNS" -ge 1 ] || { echo "RUNS must be at least 1." >&2; exit 2; }

if [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
  echo "Note: uncommitted changes are not part of this check (it clones the committed HEAD)."
fi
head="$(git -C "$here" rev-parse HEAD)"
base="$(mktemp -d "${TMPDIR:-/tmp}/vendesk-under-load.XXXXXX")"

load_pids=()
stop_load() {
  if [ ${#load_pids[@]} -gt 0 ]; then kill "${load_pids[@]}" 2>/dev/null; wait "${load_pids[@]}" 2>/dev/null; fi
  load_pids=()
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM

for _ in $(seq 1 "$LOAD"); do
  yes > /dev/null &
  load_pids+=("$!")
done
echo "Commit ${head:0:12}: $RUNS run(s) of .ci/run on fresh clones, with $LOAD busy process(es) (yes > /dev/null) beside them."

results=()
for run in $(seq 1 "$RUNS"); do
  dir="$base/run$run"
  mkdir -p "$dir"
  git clone -q "$here" "$dir/main" && git -C "$dir/main" checkout -q "$head"
  # The service's interface and the design sit beside the repository (../shared), as in CI.
  [ -d "$here/../shared" ] && cp -r "$here/../shared" "$dir/shared"
  echo "━━ Run $run of $RUNS in $dir/main (log: $dir/ci.log)"
  started=$(date +%s)
  (cd "$dir/main" && CI=true bash .ci/run) > "$dir/ci.log" 2>&1
  status=$?
  seconds=$(( $(date +%s) - started ))
  summary="$(grep -E '^tests: ' "$dir/ci.log" | tail -1)"
  if [ $status -eq 0 ]; then
    results+=("run $run: passed in ${seconds} s (${summary#tests: })")
    echo "━━ Run $run: passed in ${seconds} s — ${summary}"
    grep -E '^━━ .*: (ok|FAILED) \(|^npm test took' "$dir/ci.log"
    grep -A10 'ten slowest' "$dir/ci.log"
    rm -rf "$dir"
  else
    results+=("run $run: FAILED after ${seconds} s (${summary#tests: }); log kept at $dir/ci.log")
    echo "━━ Run $run: FAILED after ${seconds} s — ${summary:-no test summary}. The log is kept at $dir/ci.log; its failures:"
    grep -E '(FAIL|✘|failed|Error:)' "$dir/ci.log" | head -40
    break
  fi
done
stop_load

echo
if [ "$LOAD" -eq 0 ]; then
  echo "On a quiet machine (no busy processes added, $(nproc) cores), commit ${head:0:12}:"
else
  echo "Under load ($LOAD busy process(es) on $(nproc) cores), commit ${head:0:12}:"
fi
printf '  %s\n' "${results[@]}"
[ ${#results[@]} -eq "$RUNS" ] && [[ "${results[-1]}" == *passed* ]]
