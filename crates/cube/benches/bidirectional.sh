#!/bin/bash
# Times `frontier cube --algo bidirectional` (HTM; set ALGO=idastar for the default solver,
# THREADS=2 for the parallel search) on 10 seeded random scrambles each
# of 10, 12 and 14 moves, one process per scramble, with wall/CPU time and peak memory (max RSS)
# from /usr/bin/time. Run from the workspace root:
#   cargo build --release -p frontier -p frontier-cube --example scrambles
#   crates/cube/benches/bidirectional.sh > bidirectional.out
set -eu
bin=${FRONTIER:-target/release/frontier}
for len in 10 12 14; do
  target/release/examples/scrambles "$len" 10 | while IFS= read -r s; do
    out=$( { /usr/bin/time -f "TIME wall=%e user=%U sys=%S maxrss_kb=%M" "$bin" cube "$s" --algo "${ALGO:-bidirectional}" --threads "${THREADS:-1}" --stats --quiet; } 2>&1 )
    sol=$(echo "$out" | sed -n 1p)
    echo "len=$len optimal=$(echo "$sol" | wc -w) | $s | $sol | $(echo "$out" | grep '^stats') | $(echo "$out" | grep '^TIME')"
  done
done
