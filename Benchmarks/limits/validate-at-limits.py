#!/usr/bin/env python3
"""Validation time of each input file kind at its size limit: a file just under the limit, made of
the smallest entries that kind has (the shape that made validation quadratic before: many
expectations, many objectives, many places, many track points), checked by `devicesim validate`.
Prints, per kind, the file's size, the wall time and the peak memory (ru_maxrss of the child).

  swift build -c release --product devicesim
  nice python3 Benchmarks/limits/validate-at-limits.py .build/release/devicesim [KIND ...]

Kinds: scenario (64 MiB, `event:` expectations), stored (64 MiB, `stored:` expectations), world
(4 MiB, places), game (64 MiB, campus-game objectives), gpx (64 MiB, track points).
Budget (issue 47): under 5 s each on the release build.
"""
import os, subprocess, sys, tempfile, threading, time

MiB = 1 << 20
LIMITS = {"scenario": 64 * MiB, "stored": 64 * MiB, "world": 4 * MiB, "game": 64 * MiB, "gpx": 64 * MiB}

def fill(path, head, entry, tail, limit):
    """Writes head, then entry(i) for i = 0, 1, … while the file stays under limit, then tail."""
    size = len(head.encode()) + len(tail.encode())
    with open(path, "w") as out:
        out.write(head)
        i = 0
        while True:
            text = entry(i)
            if size + len(text.encode()) >= limit:
                break
            out.write(text)
            size += len(text.encode())
            i += 1
        out.write(tail)
    return i

def make(kind, folder):
    limit = LIMITS[kind] - 1024
    scenario = os.path.join(folder, "s.yaml")
    devices = "devices:\n  - { id: phone, at: [52.51, 13.32] }\nduration: 1m\n"
    if kind == "scenario":
        count = fill(scenario, "name: many expectations\n" + devices + "expect:\n", lambda i: "  - { event: app.started, at-least: 0 }\n", "", limit)
    elif kind == "stored":
        count = fill(scenario, "name: many stored expectations\n" + devices + "expect:\n",
                     lambda i: "  - { stored: \"SELECT %d\", device: phone, at: 30s, rows: [[%d]] }\n" % (i, i), "", limit)
    elif kind == "world":
        world = os.path.join(folder, "w.yaml")
        count = fill(world, "name: many places\nplaces:\n", lambda i: "  p%d: [%.6f, %.6f]\n" % (i, 52.5 + (i % 1000) * 1e-5, 13.3 + (i // 1000) * 1e-5), "", limit)
        with open(scenario, "w") as out:
            out.write("name: a world at its limit\nworld: w.yaml\n" + devices)
    elif kind == "game":
        game = os.path.join(folder, "g.yaml")
        count = fill(game, "name: many objectives\ntime-zone: Europe/Berlin\nobjectives:\n",
                     lambda i: "  - { id: o%d, name: O%d, at: [52.51, 13.32], radius: 30, points: 1 }\n" % (i, i), "", limit)
        with open(scenario, "w") as out:
            out.write("name: a game at its limit\ndevices:\n  - { id: phone, at: [52.51, 13.32], app: { name: campus-game, settings: { game: g.yaml } } }\nduration: 1m\n")
    elif kind == "gpx":
        track = os.path.join(folder, "t.gpx")
        count = fill(track, '<?xml version="1.0"?>\n<gpx version="1.1" creator="bench"><trk><trkseg>\n',
                     lambda i: '<trkpt lat="%.6f" lon="13.32"><time>2026-01-01T%02d:%02d:%02dZ</time></trkpt>\n' % (52.51 + i * 1e-7, (i // 3600) % 24, (i // 60) % 60, i % 60),
                     "</trkseg></trk></gpx>\n", limit)
        with open(scenario, "w") as out:
            out.write("name: a track at its limit\ndevices:\n  - { id: phone, track: { file: t.gpx } }\nduration: 1m\n")
    return scenario, count

def main():
    binary = os.path.abspath(sys.argv[1])
    kinds = sys.argv[2:] or list(LIMITS)
    for kind in kinds:
        with tempfile.TemporaryDirectory() as folder:
            scenario, count = make(kind, folder)
            size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
            start = time.monotonic()
            child = subprocess.Popen([binary, "validate", scenario], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            timer = threading.Timer(120, child.kill)
            timer.start()
            stderr = child.stderr.read()
            _, code, usage = os.wait4(child.pid, 0)
            timer.cancel()
            seconds = time.monotonic() - start
            status = os.waitstatus_to_exitcode(code) if seconds < 120 else "timeout"
            message = (stderr.strip().splitlines() or [""])[-1][:160] if seconds < 120 else "over 120 s"
            peak = usage.ru_maxrss * 1024
            print("%-8s %6.1f MiB  %8d entries  %7.2f s  peak %s MB  exit %s  %s" % (
                kind, size / MiB, count, seconds, peak // MiB, status, message), flush=True)

main()
