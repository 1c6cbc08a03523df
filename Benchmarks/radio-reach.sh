#!/bin/sh
# Prints the table of docs/radios.md: at which distance a default beacon and a default access point
# are first heard by a phone walking in at 1 m/s, over 100 seeds, indoors (the defaults) and outdoors
# (open space at street level), with the share of seeds that had heard each by a given distance.
# The measurement is the test RadioReachTests, which also asserts the bounds; it writes the table to
# the file named by DEVICESIM_RADIO_TABLE.
set -eu
cd "$(dirname "$0")/.."
table=$(mktemp)
trap 'rm -f "$table"' EXIT
DEVICESIM_RADIO_TABLE="$table" nice swift test --filter RadioReachTests >/dev/null
cat "$table"
