#!/usr/bin/env python3
"""Validation time of each input file kind at its size limit: a file just under the limit, made of
the smallest entries that kind has (the shape that made validation quadratic before: many
expectations, many objectives, many places, many track points), checked by `devicesim validate`.
Prints, per kind, the file's size, the wall and CPU time (user + system: on a shared, loaded machine
the CPU time is the figure to judge) and the peak memory (ru_maxrss of the child).

  swift build -c release --product devicesim
  nice python3 Benchmarks/limits/validate-at-limits.py .build/release/devicesim [KIND ...]
  nice python3 Benchmarks/limits/validate-at-limits.py .build/release/devicesim --against /tmp/old-devicesim --pairs 3 scenario stored fleet

Kinds: scenario (`event:` expectations), stored (`stored:` expectations), world (places), game
(campus-game objectives), gpx (track points), each at its limit, checked by `devicesim validate`;
results (one-scenario run records, the smallest a run writes), merged by `devicesim merge`;
fleet (not a limit: the 100,000-device fleet of Benchmarks/fleet/make-fleet.py, 5 friends, 1 h, about
28 MB), checked by `devicesim validate -q` (issue 46: under 3 s).
With `--against OLD`, each file is checked by OLD and by the build under test in turn, `--pairs` times
(default 3), and the CPU seconds of each pair are printed with their ratio (new / old): on a shared
machine, alternating runs are the fair comparison.
Budget (issue 47): under 5 s each on the release build. A file one byte over its limit must be
refused with a message naming the limit: `--over` makes each file 1 KiB over its limit instead.
"""
import os, subprocess, sys, tempfile, threading, time

MiB = 1 << 20
# The limits in the sources: ScenarioParser.maximumFileSize (scenario, stored; game files share it),
# WorldParser.maximumFileSize, GPXDocument.maximumFileSize, RunRecordCoding.maximumFileSize.
LIMITS = {"scenario": 32 * MiB, "stored": 32 * MiB, "world": 4 * MiB, "game": 8 * MiB, "gpx": 4 * MiB, "results": 32 * MiB}
KINDS = list(LIMITS) + ["fleet"]
OVER = False

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
    # The fleet is not a limit: its file is the size make-fleet.py makes.
    limit = None if kind not in LIMITS else LIMITS[kind] + 1024 if OVER else LIMITS[kind] - 1024
    scenario = os.path.join(folder, "s.yaml")
    # The dog walk records app.started and keeps <device>.sqlite, so every expectation is valid and
    # validate checks them all (without an app it stopped at the first).
    devices = "devices:\n  - { id: phone, at: [52.51, 13.32], app: { name: dog-walk } }\nduration: 1m\n"
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
    elif kind == "fleet":
        maker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fleet", "make-fleet.py")
        with open(scenario, "w") as out:
            subprocess.run([sys.executable, maker, "--devices", "100000", "--friends", "5", "--hours", "1"], stdout=out, check=True)
        count = 100000
    elif kind == "results":
        # A whole run of one scenario file under many seeds: records are checked against the header.
        scenario = os.path.join(folder, "r.jsonl")
        record = '{"expectations":1,"failures":[],"name":"s.yaml","passed":true,"path":"s.yaml","position":%d,"seed":%d,"swept":true,"title":"s","virtualSeconds":60,"wallSeconds":0.01}\n'
        entries = (limit - 200) // len(record % (10 ** 6, 10 ** 6))
        count = fill(scenario, '{"format":"devicesim-results/1","planSize":%d,"seeds":"1-%d"}\n' % (entries, entries),
                     lambda i: record % (i, i + 1), "", limit)
        if count != entries:   # the header names the plan: rewrite it with the records written
            text = open(scenario).read().split("\n", 1)[1]
            with open(scenario, "w") as out:
                out.write('{"format":"devicesim-results/1","planSize":%d,"seeds":"1-%d"}\n' % (count, count) + text)
    return scenario, count

def check(binary, kind, scenario):
    """Runs the check of `scenario` by `binary`: (wall seconds, CPU seconds, peak bytes, exit, last line)."""
    start = time.monotonic()
    if kind == "results":
        command = [binary, "merge", "--quiet", scenario]
    elif kind == "fleet":
        command = [binary, "validate", "-q", scenario]
    else:
        command = [binary, "validate", scenario]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(600, child.kill)
    timer.start()
    stderr = child.stderr.read()
    _, code, usage = os.wait4(child.pid, 0)
    timer.cancel()
    seconds = time.monotonic() - start
    status = os.waitstatus_to_exitcode(code) if seconds < 600 else "timeout"
    message = (stderr.strip().splitlines() or [""])[-1][:160] if seconds < 600 else "over 600 s"
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, status, message

def main():
    global OVER
    arguments = sys.argv[1:]
    if "--over" in arguments:
        OVER = True
        arguments.remove("--over")
    against, pairs = None, 3
    if "--against" in arguments:
        at = arguments.index("--against")
        against = os.path.abspath(arguments[at + 1])
        del arguments[at:at + 2]
    if "--pairs" in arguments:
        at = arguments.index("--pairs")
        pairs = int(arguments[at + 1])
        del arguments[at:at + 2]
    binary = os.path.abspath(arguments[0])
    kinds = arguments[1:] or KINDS
    for kind in kinds:
        with tempfile.TemporaryDirectory() as folder:
            scenario, count = make(kind, folder)
            size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
            if against is None:
                seconds, cpu, peak, status, message = check(binary, kind, scenario)
                print("%-8s %6.1f MiB  %8d entries  %7.2f s wall  %7.2f s CPU  peak %s MB  exit %s  %s" % (
                    kind, size / MiB, count, seconds, cpu, peak // MiB, status, message), flush=True)
                continue
            ratios = []
            for pair in range(pairs):
                _, old_cpu, old_peak, old_status, _ = check(against, kind, scenario)
                _, new_cpu, new_peak, new_status, message = check(binary, kind, scenario)
                ratios.append(new_cpu / old_cpu)
                print("%-8s %6.1f MiB  pair %d  old %7.2f s CPU %5d MB exit %s  new %7.2f s CPU %5d MB exit %s  ratio %.3f  %s" % (
                    kind, size / MiB, pair + 1, old_cpu, old_peak // MiB, old_status, new_cpu, new_peak // MiB, new_status, new_cpu / old_cpu, message), flush=True)
            print("%-8s ratio new/old: median %.3f (%.3f-%.3f) over %d pairs" % (kind, sorted(ratios)[len(ratios) // 2], min(ratios), max(ratios), pairs), flush=True)

main()
