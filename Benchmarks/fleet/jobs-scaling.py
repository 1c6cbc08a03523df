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

The speed-ups are medians of each round's own ratios (its `--jobs 2` against its `--jobs 1`, run
seconds apart, in alternating order), with their middle half: on a shared host the load changes
between rounds more than between the runs of one round, so ratios taken within a round vary less
than ratios of medians taken across rounds.
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
        named = list(cases(binary).items())
        for name, commands in (named if round % 2 == 0 else reversed(named)):
            times[binary][name].append(seconds(commands))


def middle(values):
    """The median and the middle half (first and third quartiles)."""
    quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return statistics.median(values), quartiles[0], quartiles[2]


print(f"{arguments.rounds} rounds; times are medians, speed-ups medians of each round's ratios [middle half]:")
for binary in arguments.binaries:
    cells = times[binary]
    medians = {name: statistics.median(values) for name, values in cells.items()}
    one, two, pair = cells["--jobs 1"], cells["--jobs 2"], cells["two --jobs 1 processes at once"]
    ratios = {
        "--jobs 1": [1.0] * len(one),
        "--jobs 2": [a / b for a, b in zip(one, two)],
        "two --jobs 1 processes at once": [2 * a / p for a, p in zip(one, pair)],
    }
    shares = [a / b / (2 * a / p) for a, b, p in zip(one, two, pair)]
    print(binary)
    for name, median in medians.items():
        ratio, low, high = middle(ratios[name])
        spread = "" if name == "--jobs 1" else f" [{low:4.2f}-{high:4.2f}]"
        print(f"  {name:32} {median * 1000:7.0f} ms  {ratio:4.2f}x{spread}" + (" (twice the work)" if name.startswith("two") else ""))
    share, low, high = middle(shares)
    print(f"  --jobs 2 reaches {share * 100:.0f} % [{low * 100:.0f}-{high * 100:.0f} %] of the machine's ceiling for this work")
