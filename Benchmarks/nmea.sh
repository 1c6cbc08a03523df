#!/usr/bin/env bash
# NMEA decoding, side by side on the same file: devicesim (release), gpsd's gpsdecode, pynmea2.
# Also peak memory of decoding and of playing a 1 GB log.
#   bash Benchmarks/nmea.sh            (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
# The inputs (50 MB and 1 GB) are made once and kept in $cache; each run's other files go in a folder
# of its own, so two runs at once do not share them.
cache=${TMPDIR:-/tmp}/devicesim-bench-nmea
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/devicesim-nmea.XXXXXX")
trap 'rm -rf "$work"' EXIT

swift build -c release --product devicesim >/dev/null
swift build -c release --package-path Benchmarks --product bench-nmea >/dev/null
bin=.build/release/devicesim

echo "== in-process decoder throughput (one core)"
Benchmarks/.build/release/bench-nmea Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea

# ~50 MB of the corpus, NMEA only (gpsdecode and pynmea2 get exactly the same bytes).
input=$cache/corpus-50mb.nmea
if [ ! -s "$input" ]; then
  : > "$work/corpus.part"
  while [ "$(stat -c %s "$work/corpus.part")" -lt 50000000 ]; do cat Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea/*.log >> "$work/corpus.part"; done
  mv "$work/corpus.part" "$input"
fi
size=$(stat -c %s "$input")
echo "== end to end on $input ($size bytes)"

seconds() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
report() { # name, "seconds maxrss" [, bytes]
  read -r s m <<<"$2"
  awk -v n="$1" -v s="$s" -v m="$m" -v b="${3:-$size}" 'BEGIN { printf "%-22s %7.2f s %8.1f MB/s %8.0f MB peak RSS\n", n, s, b/1e6/(s>0?s:0.001), m/1024 }'
}
python3 -c "import pynmea2" 2>/dev/null || pip install -q pynmea2 >/dev/null 2>&1 || true
cat > "$work/pynmea2_decode.py" <<'PY'
import sys, pynmea2
reader = pynmea2.NMEAStreamReader(errors="ignore")
with open(sys.argv[1], "r", encoding="latin-1") as f:
    for chunk in iter(lambda: f.read(65536), ""):
        for msg in reader.next(chunk):
            pass
PY
commands=("$bin nmea decode $input" "$bin nmea decode --threads 1 $input")
names=("devicesim nmea decode" "devicesim --threads 1")
command -v gpsdecode >/dev/null && { commands+=("gpsdecode < $input"); names+=("gpsdecode"); }
python3 -c "import pynmea2" 2>/dev/null && { commands+=("python3 $work/pynmea2_decode.py $input"); names+=("pynmea2"); }
report "devicesim nmea decode" "$(seconds "$bin" nmea decode "$input")"
if command -v hyperfine >/dev/null; then
  # Side by side: every tool on the same file, ${RUNS:-8} runs each (after a warm-up run), in one go.
  hyperfine -w 1 -r "${RUNS:-8}" --output=null --export-json "$work/e2e.json" "${commands[@]}" >/dev/null
  python3 - "$work/e2e.json" "$size" "${names[@]}" <<'PY'
import json, sys
results, size, names = json.load(open(sys.argv[1]))["results"], int(sys.argv[2]), sys.argv[3:]
ours = results[0]
for name, r in zip(names, results):
    print(f"{name:22} mean {r['mean']:7.3f} s  median {r['median']:7.3f} s  min {r['min']:7.3f} s  "
          f"{size / 1e6 / r['mean']:7.1f} MB/s (mean)")
for name, r in zip(names[1:], results[1:]):
    print(f"ratio: devicesim is {r['mean'] / ours['mean']:.1f}x {name} (means), {r['median'] / ours['median']:.1f}x (medians), "
          f"{r['min'] / ours['min']:.1f}x (fastest runs)")
PY
else
  echo "(hyperfine not found: one run each; apt-get install hyperfine for repeated side-by-side runs)"
  for index in "${!commands[@]}"; do
    [ "$index" = 0 ] && continue
    report "${names[$index]}" "$(/usr/bin/time -f "%e %M" sh -c "${commands[$index]} > /dev/null" 2>&1 | tail -1)"
  done
fi

echo "== peak memory on a 1 GB log"
big=$cache/log-1gb.nmea
if [ ! -s "$big" ]; then
  "$bin" nmea export --waypoints "52.5145,13.3501;52.5300,13.4500;52.5145,13.3501" --speed walk --out "$work/loop.nmea" 2>/dev/null
  : > "$work/big.part"
  while [ "$(stat -c %s "$work/big.part")" -lt 1000000000 ]; do cat "$work/loop.nmea" "$work/loop.nmea" "$work/loop.nmea" "$work/loop.nmea" >> "$work/big.part"; done
  mv "$work/big.part" "$big"
fi
bigsize=$(stat -c %s "$big")
echo "$bigsize bytes"
report "decode 1 GB" "$(seconds "$bin" nmea decode "$big" --no-sky)" "$bigsize"
cat > "$work/play.yaml" <<YAML
name: play a 1 GB log
duration: 7d
devices:
  - id: walker
    track: { file: $big, speed-factor: 10 }
    app: { name: dog-walk, settings: { update-interval: 1h } }
timeline:
  - { at: 0s, do: start-service }
YAML
/usr/bin/time -f "play 1 GB in a scenario: %e s, %M KB peak RSS" "$bin" run -v --max-events 200000000 "$work/play.yaml" 2>&1 | tail -3
