#!/usr/bin/env bash
# devicesim serve's targets through a real gpsd (Debian's gpsd and gpsd-clients), on free loopback ports:
#   1. a walk of HOURS hours (default 24) served at --speed 100 to gpsd and read by gpspipe: the seconds
#      of the scenario with a TPV report, against the epochs served (no report lost: equal);
#   2. LAG seconds (default 120) at --speed 1 with --start-time now: how long after its epoch's time
#      gpspipe prints each TPV report (p50, p99, max), i.e. how far gpsd's clients lag the simulation.
# Usage: Benchmarks/serve/serve-through-gpsd.sh [DEVICESIM] [HOURS] [LAG]   (HOURS 0: the lag only)
#   DEVICESIM  the binary (default .build/release/devicesim: swift build -c release --product devicesim)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
devicesim=${1:-$here/.build/release/devicesim}
hours=${2:-24}
lag=${3:-120}
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# A walk back and forth along 2 km of the Tiergarten for the whole time.
python3 - "$hours" "$lag" > "$work/walk.yaml" <<'PY'
import sys
hours = max(float(sys.argv[1]), float(sys.argv[2]) / 3600)
legs = int(hours * 3600 / (2000 / 1.4)) + 2
print(f"name: a {sys.argv[1]}-hour walk, served\nseed: 7\nstart-time: 2026-05-01T00:00:00Z\nduration: {int(hours * 3600)}s")
print("devices:\n  - id: walker\n    at: [52.51450, 13.35010]\n    gps: { accuracy: 4 }\n    route:\n      speed: walk\n      waypoints:")
for leg in range(legs):
    print("        - [52.51450, 13.37950]" if leg % 2 == 0 else "        - [52.51450, 13.35010]")
PY

serve_and_read() { # speed, extra serve options..., then gpspipe's options after --
  local speed=$1; shift
  local serve_port gpsd_port
  serve_port=$(port); gpsd_port=$(port)
  "$devicesim" serve "$work/walk.yaml" --nmea-tcp "127.0.0.1:$serve_port" --speed "$speed" --wait-for-client -q "$@" > "$work/serve.out" 2> "$work/serve.err" &
  local serve_pid=$!; pids+=("$serve_pid")
  sleep 0.5
  TMPDIR=$work gpsd -N -S "$gpsd_port" -F "$work/gpsd-$gpsd_port.sock" "tcp://127.0.0.1:$serve_port" 2> "$work/gpsd.err" &
  local gpsd_pid=$!; pids+=("$gpsd_pid")
  sleep 1
  gpspipe -w -uu "127.0.0.1:$gpsd_port" > "$work/gpspipe.out" &
  local pipe_pid=$!; pids+=("$pipe_pid")
  wait "$serve_pid" || true
  sleep 2
  kill "$pipe_pid" "$gpsd_pid" 2>/dev/null || true
  wait "$pipe_pid" "$gpsd_pid" 2>/dev/null || true
}

if [ "$hours" != 0 ]; then   # HOURS 0: only the lag
echo "1. ${hours} h at --speed 100 through gpsd ($(date -u +%H:%M:%S))"
start=$(date +%s.%N)
serve_and_read 100
end=$(date +%s.%N)
grep -E "served|epochs" "$work/serve.out"
python3 - "$work/gpspipe.out" <<'PY'
import json, sys
seconds_with_fix, seconds_any, reports = set(), set(), 0
for line in open(sys.argv[1], errors="replace"):
    stamp, _, body = line.partition(": ")
    try: report = json.loads(body)
    except ValueError: continue
    if report.get("class") != "TPV" or "time" not in report: continue
    reports += 1
    seconds_any.add(report["time"])
    if report.get("mode", 0) >= 2: seconds_with_fix.add(report["time"])
print(f"gpspipe: {reports} TPV reports, {len(seconds_any)} distinct epoch times, {len(seconds_with_fix)} with a fix")
PY
echo "wall time: $(python3 -c "print(round($end - $start, 1))") s"
fi

echo "2. ${lag} s at --speed 1 with --start-time now: TPV lag behind the simulation"
sed -i "s/^duration: .*/duration: ${lag}s/" "$work/walk.yaml"
serve_and_read 1 --start-time now
python3 - "$work/gpspipe.out" <<'PY'
import json, sys, datetime
lags = []
for line in open(sys.argv[1], errors="replace"):
    stamp, _, body = line.partition(": ")
    try: report = json.loads(body); received = float(stamp.split()[-1])
    except ValueError: continue
    if report.get("class") != "TPV" or "time" not in report: continue
    due = datetime.datetime.fromisoformat(report["time"].replace("Z", "+00:00")).timestamp()
    lags.append((received - due) * 1000)
lags.sort()
if not lags: sys.exit("no TPV reports")
pick = lambda q: lags[min(len(lags) - 1, int(q * len(lags)))]
print(f"{len(lags)} TPV reports: lag p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, max {lags[-1]:.1f} ms")
PY
