#!/usr/bin/env bash
# Serve a real gpsd from an NMEA log, for trying `devicesim live` and `devicesim record` without a
# receiver.   Simulator/fake-gpsd/serve.sh [LOG] [PORT] [CYCLE]
#   LOG    an NMEA log (default: Simulator/tracks/tiergarten-walk.nmea)
#   PORT   gpsd's port (default 2947)
#   CYCLE  seconds between sentences (default 0.33: about one GGA+RMC+GSA epoch a second)
# Then, in another terminal:  devicesim live --gpsd localhost:PORT Scenarios/dog-walk/walk-2km.yaml
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
log=${1:-$here/Simulator/tracks/tiergarten-walk.nmea}
port=${2:-2947}
cycle=${3:-0.33}
command -v gpsfake >/dev/null || { echo "gpsfake is missing: apt-get install gpsd gpsd-clients" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "gpsd on 127.0.0.1:$port playing $log (Ctrl-C to stop)" >&2
TMPDIR=$tmp gpsfake -q -P "$port" -c "$cycle" "$log"
