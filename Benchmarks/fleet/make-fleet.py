#!/usr/bin/env python3
"""Writes a fleet scenario: N devices on the campus world, each running the friend locator with
auto-ping and auto-locate and walking through three campus places, for a given virtual time.

    python3 Benchmarks/fleet/make-fleet.py --devices 1000 --friends 5 --hours 1 > /tmp/fleet.yaml
    python3 Benchmarks/fleet/make-fleet.py --devices 1000 --friends all ...
    python3 Benchmarks/fleet/make-fleet.py --devices 20000 --idle --minutes 1   # no app, standing still
    python3 Benchmarks/fleet/make-fleet.py --devices 1000 --alone /tmp/alone    # each device in a file of its own
    python3 Benchmarks/fleet/make-fleet.py --devices 1000 --no-bluetooth        # the same fleet, Bluetooth off
    python3 Benchmarks/fleet/make-fleet.py --devices 1000 --standing            # the same fleet, nobody walks

With --alone DIR, every device of the fleet (same place, route, app and seed) is written to a scenario
file of its own in DIR, with no friends: what a device costs alone, against what it costs in a crowd.

The scenario names the world by an absolute path, so it can be written anywhere."""
import argparse, os, random

here = os.path.dirname(os.path.abspath(__file__))
world = os.path.normpath(os.path.join(here, "..", "..", "Simulator", "worlds", "campus.yaml"))
places = ["south-gate", "library", "mensa", "main-building"]

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--devices", type=int, required=True)
parser.add_argument("--friends", default="5", help="friends per account (a number) or 'all'")
parser.add_argument("--hours", type=float, default=1)
parser.add_argument("--minutes", type=float)
parser.add_argument("--idle", action="store_true", help="devices with no app, standing still")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--alone", metavar="DIR", help="write each device to a scenario file of its own in DIR")
parser.add_argument("--no-bluetooth", action="store_true", help="every device with Bluetooth off (what beacon ranging costs: the difference)")
parser.add_argument("--standing", action="store_true", help="no device walks: each stays at its first place")
args = parser.parse_args()
minutes = args.minutes if args.minutes is not None else args.hours * 60
rng = random.Random(args.seed)
ids = [f"d{i:05d}" for i in range(args.devices)]

out = [f"name: fleet of {args.devices} ({'idle' if args.idle else 'friends ' + args.friends})",
       f"world: {world}", f"seed: {args.seed}", f"duration: {minutes:g}m"]
if not args.idle and args.friends != "all":
    k = int(args.friends)
    out.append("backend:\n  accounts:")
    for i, device in enumerate(ids):
        friends = [ids[(i + j) % len(ids)] for j in range(1, k + 1) if (i + j) % len(ids) != i]
        out.append(f"    - {{ id: {device}, friends: [{', '.join(friends)}] }}")
blocks = []
for device in ids:
    start = rng.choice(places)
    if args.idle:
        blocks.append(f"  - {{ id: {device}, at: {start}, gps: {{ enabled: false }}, wifi: {{ enabled: false }}, bluetooth: {{ enabled: false }} }}")
        continue
    route = rng.sample([p for p in places if p != start], 3)
    route_start = rng.randrange(0, 600)  # drawn also when standing, so the fleets differ only in what is asked
    block = f"  - id: {device}\n    at: {start}\n"
    if not args.standing:
        block += f"    route: {{ start: {route_start}s, waypoints: [{', '.join(route)}] }}\n"
    block += f"    app: {{ name: friend-locator, settings: {{ auto-ping: true, auto-locate: true, manual-pinning: false }} }}"
    if args.no_bluetooth:
        block += "\n    bluetooth: { enabled: false }"
    blocks.append(block)
if args.alone:
    os.makedirs(args.alone, exist_ok=True)
    for device, block in zip(ids, blocks):
        with open(os.path.join(args.alone, f"{device}.yaml"), "w") as file:
            file.write("\n".join([f"name: {device} alone", f"world: {world}", f"seed: {args.seed}", f"duration: {minutes:g}m",
                                  f"backend:\n  accounts:\n    - {{ id: {device}, friends: [] }}", "devices:", block]) + "\n")
else:
    print("\n".join(out + ["devices:"] + blocks))
