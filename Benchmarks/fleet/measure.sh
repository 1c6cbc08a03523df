#!/usr/bin/env bash
# Measures fleets of the friend-locator app on the campus world (see make-fleet.py), each case run by
# every binary given, alternately, in one go: wall time, user CPU time, peak RSS and trace size.
#
#   bash Benchmarks/fleet/measure.sh NEW_BINARY [OLD_BINARY ...]          # the table
#   CASES="1000x5" bash Benchmarks/fleet/measure.sh .build/release/devicesim /tmp/old/devicesim
#
# Cases (CASES, space-separated; default: all but the slowest two): 1x24h, 100x5, 1000x5, 100xall,
# 1000xall, 10000x5 (slow), idle100000 (a `count:` entry), alone1000 (each device of 1000x5 in a
# scenario file of its own, run one after another with --jobs 1: what a device costs alone), jobs (the
# bundled Scenarios with --jobs 1 and --jobs 2, by jobs-scaling.py, ROUNDS rounds: its own table).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repository="$(cd "$here/../.." && pwd)"
[ $# -ge 1 ] || { sed -n 2,10p "$0"; exit 2; }
binaries=("$@")
cases=${CASES:-"1x24h 100x5 1000x5 100xall 1000xall idle100000 jobs"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_case() {
    case $1 in
        1x24h) python3 "$here/make-fleet.py" --devices 1 --hours 24 ;;
        100x5) python3 "$here/make-fleet.py" --devices 100 --friends 5 --hours 1 ;;
        1000x5) python3 "$here/make-fleet.py" --devices 1000 --friends 5 --hours 1 ;;
        10000x5) python3 "$here/make-fleet.py" --devices 10000 --friends 5 --hours 1 ;;
        100xall) python3 "$here/make-fleet.py" --devices 100 --friends all --hours 1 ;;
        1000xall) python3 "$here/make-fleet.py" --devices 1000 --friends all --hours 1 ;;
        idle100000) printf 'name: 100,000 idle devices\nworld: %s\nduration: 1m\ndevices:\n  - { id: d, count: 100000, at: library, gps: { enabled: false }, wifi: { enabled: false }, bluetooth: { enabled: false } }\n' \
            "$repository/Simulator/worlds/campus.yaml" ;;
    esac
}

echo "| case | binary | wall | user CPU | peak RSS | trace (or exit status) |"
echo "|---|---|---|---|---|---|"
for name in $cases; do
    if [ "$name" = alone1000 ]; then
        python3 "$here/make-fleet.py" --devices 1000 --friends 5 --hours 1 --alone "$work/alone"
        for binary in "${binaries[@]}"; do
            rm -rf "$work/trace"
            /usr/bin/time -f "%x %e %U %M" -o "$work/time" "$binary" run -q "$work/alone" --jobs 1 --trace "$work/trace" > "$work/out" 2>&1 || true
            read -r status wall user rss < <(tail -1 "$work/time")
            size=$(du -sh "$work/trace" 2>/dev/null | cut -f1)
            echo "| alone1000 | $binary | $wall s | $user s | $((rss / 1024)) MB | ${size:-?} |"
        done
        continue
    fi
    if [ "$name" = jobs ]; then
        # Single runs of under a second swing too much on a shared machine: medians of interleaved
        # rounds, next to the machine's own ceiling (see jobs-scaling.py).
        echo
        echo "bundled Scenarios, --jobs 1 and --jobs 2:"
        python3 "$here/jobs-scaling.py" "${binaries[@]}" --rounds "${ROUNDS:-9}" --folder "$repository/Scenarios"
        echo
        continue
    fi
    make_case "$name" > "$work/$name.yaml"
    for binary in "${binaries[@]}"; do
        rm -rf "$work/trace"
        /usr/bin/time -f "%x %e %U %M" -o "$work/time" "$binary" run -q "$work/$name.yaml" --trace "$work/trace" > "$work/out" 2>&1 || true
        read -r status wall user rss < <(tail -1 "$work/time")
        size=$(du -sh "$work/trace" 2>/dev/null | cut -f1)
        [ "$status" = 0 ] || { echo "  ($binary exited with $status: $(tail -1 "$work/out"))" >&2; }
        echo "| $name | $binary | $wall s | $user s | $((rss / 1024)) MB | ${size:-?} |"
    done
done
