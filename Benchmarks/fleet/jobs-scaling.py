#!/usr/bin/env python3
"""How `devicesim run --jobs 2` scales on this machine, next to what the machine itself allows.

    python3 Benchmarks/fleet/jobs-scaling.py .build/release/devicesim [OLD_BINARY ...] [--rounds 15] [--folder Scenarios]

Each round runs, for each binary in turn: `run FOLDER --jobs 1`; `run FOLDER --jobs 2`; and two
whole `run FOLDER --jobs 1` processes at once. The last gives the machine's own ceiling for this
work: twice the work of `--jobs 1` in that time. Two processes share nothing but the processors,
their caches and the memory bus, so what they lose to each other is what the machine loses to
running two things at once (on a shared host that can be a lot, and it changes from minute to
minute: compare binaries in one run, side by side, never across runs). Prints medians over the
rounds, and speed-ups over `--jobs 1`.
"""
import argparse
import os
import statistics
import subprocess
import time

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("binaries", nargs="+")
parser.add_argument("--rounds", type=int, default=15)
parser.add_argument("--folder", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scenarios"))
arguments = parser.parse_args()


def seconds(commands):
    start = time.perf_counter()
    processes = [subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for command in commands]
    statuses = [process.wait() for process in processes]
    if any(status not in (0, 1) for status in statuses):
        raise SystemExit(f"a run failed (exit statuses {statuses}): {commands}")
    return time.perf_counter() - start


def cases(binary):
    run = [os.path.abspath(binary), "run", "-q", os.path.abspath(arguments.folder)]
    return {
        "--jobs 1": [run + ["--jobs", "1"]],
        "--jobs 2": [run + ["--jobs", "2"]],
        "two --jobs 1 processes at once": [run + ["--jobs", "1"], run + ["--jobs", "1"]],
    }


times = {binary: {name: [] for name in cases(binary)} for binary in arguments.binaries}
for binary in arguments.binaries:
    for commands in cases(binary).values():
        seconds(commands)  # warm the file cache
for round in range(arguments.rounds):
    order = arguments.binaries if round % 2 == 0 else list(reversed(arguments.binaries))
    for binary in order:
        for name, commands in cases(binary).items():
            times[binary][name].append(seconds(commands))
print(f"{arguments.rounds} rounds, medians:")
for binary in arguments.binaries:
    medians = {name: statistics.median(values) for name, values in times[binary].items()}
    one = medians["--jobs 1"]
    ceiling = 2 * one / medians["two --jobs 1 processes at once"]
    print(binary)
    for name, median in medians.items():
        speedup = ceiling if name.startswith("two") else one / median
        print(f"  {name:32} {median * 1000:7.0f} ms  {speedup:4.2f}x" + (" (twice the work)" if name.startswith("two") else ""))
    print(f"  --jobs 2 reaches {one / medians['--jobs 2'] / ceiling * 100:.0f} % of the machine's ceiling ({ceiling:.2f}x) for this work")
