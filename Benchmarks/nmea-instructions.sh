#!/usr/bin/env bash
# Instructions per input byte of `devicesim nmea decode --threads 1` over the gpsd corpus concatenated
# once (3.1 MB), counted by callgrind in the decode loop only (process start-up left out). Stable on
# a busy machine, unlike times.
#   bash Benchmarks/nmea-instructions.sh [DEVICESIM_BINARY]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
# A folder of this run's own (two runs at once do not share files); kept for callgrind_annotate.
work=$(mktemp -d "${TMPDIR:-/tmp}/devicesim-nmea-instructions.XXXXXX")
bin=${1:-}
if [ -z "$bin" ]; then
  swift build -c release --product devicesim >/dev/null
  bin=.build/release/devicesim
fi
input=$work/corpus.nmea
cat Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea/*.log > "$input"
# Valgrind 3.19 cannot read the DWARF 5 debug information Swift writes: count on a copy without it.
strip --strip-debug -o "$work/devicesim-nodebug" "$bin"
valgrind --tool=callgrind --toggle-collect='*NMEADecodePipelineC15runOnThisThread*LLyyF' --callgrind-out-file="$work/callgrind.out" \
  "$work/devicesim-nodebug" nmea decode --threads 1 "$input" > /dev/null 2> "$work/callgrind.log"
instructions=$(grep -o 'Collected : [0-9]*' "$work/callgrind.log" | grep -o '[0-9]*$')
bytes=$(stat -c %s "$input")
awk -v i="$instructions" -v b="$bytes" 'BEGIN { printf "%d instructions over %d bytes: %.2f per byte\n", i, b, i / b }'
echo "where they go: callgrind_annotate $work/callgrind.out"
