#!/usr/bin/env python3
"""What a device-hour costs in a large fleet against a small one (issue 46: within 1.2x from 1,000 to
100,000 devices), measured side by side on this machine.

    python3 Benchmarks/fleet/device-hour-ratio.py .build/release/devicesim [--small 1000] [--large 10000] [--rounds 3]

Both fleets come from make-fleet.py (the friend-locator app on the campus world, 5 friends each,
1 hour unless --hours says otherwise). Each round runs the small fleet `--small-runs` times (5),
the large fleet once, and the small fleet `--small-runs` times again, and divides the large run's
user CPU seconds per device by the mean of the small runs' per device: the small runs bracket the
large one, so a change in the host's load during the round weighs on both sides. Prints each
round's figures and the median of the rounds' ratios (a ratio taken within a round varies less on
a shared host than one of medians taken across rounds).

Runs under `chrt -f 10` when that is allowed (root), as the other fleet benchmarks do, so that the
runs are not preempted by the machine's ordinary work. A large fleet of 100,000 devices takes
several minutes a run and about 4 GB.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("binary", help="the devicesim executable (a release build)")
parser.add_argument("--small", type=int, default=1000, help="devices in the small fleet (1000)")
parser.add_argument("--large", type=int, default=10000, help="devices in the large fleet (10000)")
parser.add_argument("--hours", type=float, default=1, help="virtual hours of each fleet (1)")
parser.add_argument("--rounds", type=int, default=3, help="rounds (3)")
parser.add_argument("--small-runs", type=int, default=5, help="small-fleet runs before and after each large run (5)")
arguments = parser.parse_args()
if arguments.small < 1 or arguments.large < 1 or arguments.rounds < 1 or arguments.small_runs < 1 or arguments.hours <= 0:
    parser.error("--small, --large, --rounds and --small-runs must be at least 1, --hours above 0")
if not os.access(arguments.binary, os.X_OK):
    parser.error(f"{arguments.binary} is not an executable file")


def realtime_prefix():
    """`chrt -f 10` when this process may use it, else nothing."""
    try:
        subprocess.run(["chrt", "-f", "10", "true"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return ["chrt", "-f", "10"]
    except (OSError, subprocess.CalledProcessError):
        return []


def user_seconds(prefix, fleet):
    """Runs the fleet and returns the user CPU seconds of the run (its child processes included)."""
    process = subprocess.Popen(prefix + [arguments.binary, "run", "-q", fleet], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode(errors="replace")
    if process.returncode != 0:
        sys.exit(f"{fleet}: devicesim exited with {process.returncode}\n{errors}")
    return usage.ru_utime


with tempfile.TemporaryDirectory() as folder:
    fleets = {}
    for devices in (arguments.small, arguments.large):
        path = os.path.join(folder, f"fleet-{devices}.yaml")
        with open(path, "w") as output:
            subprocess.run([sys.executable, os.path.join(here, "make-fleet.py"), "--devices", str(devices), "--friends", "5",
                            "--minutes", str(arguments.hours * 60)], stdout=output, check=True)
        fleets[devices] = path
    prefix = realtime_prefix()
    print(f"{arguments.large:,} against {arguments.small:,} devices x {arguments.hours:g} h, {arguments.binary}"
          f"{' (chrt -f 10)' if prefix else ''}", flush=True)
    ratios = []
    for round_number in range(1, arguments.rounds + 1):
        small = [user_seconds(prefix, fleets[arguments.small]) for _ in range(arguments.small_runs)]
        large = user_seconds(prefix, fleets[arguments.large])
        small += [user_seconds(prefix, fleets[arguments.small]) for _ in range(arguments.small_runs)]
        small_per_device_hour = statistics.mean(small) / arguments.small / arguments.hours
        large_per_device_hour = large / arguments.large / arguments.hours
        ratio = large_per_device_hour / small_per_device_hour
        ratios.append(ratio)
        print(f"round {round_number}: {arguments.small:,} devices {statistics.mean(small):.2f} s user (mean of {len(small)}), "
              f"{small_per_device_hour * 1e3:.2f} ms a device-hour; {arguments.large:,} devices {large:.2f} s, "
              f"{large_per_device_hour * 1e3:.2f} ms a device-hour; ratio {ratio:.3f}", flush=True)
    print(f"median ratio {statistics.median(ratios):.3f} over {len(ratios)} round{'s' if len(ratios) != 1 else ''}")
