#!/bin/bash
# Times `frontier cube` on 10 seeded random scrambles of each length (HTM), one process per
# scramble, with wall/CPU time and peak memory (max RSS) from /usr/bin/time.
#   SOLVER=optimal (default) | twophase | search    the --solver
#   ALGO=bidirectional | idastar | ...              with SOLVER=search, the --algo
#   THREADS=1                                       --threads
#   LENGTHS="10 12 14"                              the scramble lengths
# The tables must be cached already (run any `frontier cube` once). From the workspace root:
#   cargo build --release -p frontier -p frontier-cube --example scrambles
#   crates/cube/benches/scrambles.sh > optimal.out
set -eu
bin=${FRONTIER:-target/release/frontier}
solver=${SOLVER:-optimal}
algo=()
if [ "$solver" = search ]; then algo=(--algo "${ALGO:-bidirectional}"); fi
for len in ${LENGTHS:-10 12 14}; do
  target/release/examples/scrambles "$len" 10 | while IFS= read -r s; do
    out=$( { /usr/bin/time -f "TIME wall=%e user=%U sys=%S maxrss_kb=%M" "$bin" cube "$s" --solver "$solver" "${algo[@]}" --threads "${THREADS:-1}" --stats --quiet; } 2>&1 )
    sol=$(echo "$out" | sed -n 1p)
    echo "len=$len found=$(echo "$sol" | wc -w) | $s | $sol | $(echo "$out" | grep '^stats') | $(echo "$out" | grep '^TIME')"
  done
done
