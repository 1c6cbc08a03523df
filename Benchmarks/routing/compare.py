"""The routing comparison: DeviceSim's planner against an independent networkx reference with the
same rules (reference.py), and against Routino (Debian's routino) on the same extract, side by side
in one run.

Usage: python3 compare.py [--pairs 1000] [--seed 34] [--extract ../../Simulator/worlds/helsinki.osm.pbf]
Needs: swift build -c release --package-path Benchmarks/routing (route-pairs), pip install networkx
osmium numpy, apt-get install routino (without it the Routino columns are skipped).

For each mode, random positions in the extract's bounding box are paired; a pair is kept when the
reference routes it (both ends within 100 m of a street the mode may use, a route between them)
until there are --pairs pairs. Prints per mode the distribution of DeviceSim's length against the
reference's, and the query times.
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROUTINO_PROFILE = {"foot": "foot", "bike": "bicycle", "car": "motorcar"}


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def routino_route(folder, mode, pair):
    """(metres, microseconds) of Routino's shortest route, or (None, microseconds)."""
    lat1, lon1, lat2, lon2 = pair
    out = os.path.join(folder, "out")
    os.makedirs(out, exist_ok=True)
    begin = time.perf_counter()
    result = subprocess.run(
        ["routino-router", f"--dir={folder}", "--profiles=/usr/share/routino/profiles.xml", f"--profile={ROUTINO_PROFILE[mode]}",
         f"--lat1={lat1}", f"--lon1={lon1}", f"--lat2={lat2}", f"--lon2={lon2}", "--shortest", "--output-text-all", "--quiet"],
        cwd=out, capture_output=True, text=True)
    micros = (time.perf_counter() - begin) * 1e6
    path = os.path.join(out, "shortest-all.txt")
    if result.returncode != 0 or not os.path.exists(path):
        return None, micros
    metres = None
    with open(path) as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.split("\t")
            # Columns: lat lon node type seg-distance seg-duration total-distance total-duration ...
            try:
                metres = float(fields[6].replace("km", "").strip()) * 1000
            except (IndexError, ValueError):
                pass
    os.remove(path)
    return metres, micros


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--extract", default=os.path.join(HERE, "../../Simulator/worlds/helsinki.osm.pbf"))
    parser.add_argument("--modes", default="foot,bike,car")
    args = parser.parse_args()
    binary = os.path.join(HERE, ".build/release/route-pairs")
    extract = reference.Extract()
    extract.apply_file(args.extract)
    lats = [p[0] for p in extract.nodes.values()]
    lons = [p[1] for p in extract.nodes.values()]
    box = (min(lats), max(lats), min(lons), max(lons))
    routino = shutil.which("routino-router") is not None
    work = tempfile.mkdtemp(prefix="routing-comparison-")
    if routino:
        subprocess.run(["planetsplitter", f"--dir={work}", "--tagging=/usr/share/routino/tagging.xml", "--loggable", args.extract],
                       check=True, capture_output=True)
    print(f"extract {args.extract}: {len(extract.nodes)} nodes, box {box}")
    for mode in args.modes.split(","):
        rng = random.Random(f"{args.seed}-{mode}")
        ref = reference.Reference(args.extract, mode, extract)
        pairs, answers, ref_times, tried = [], [], [], 0
        while len(pairs) < args.pairs:
            tried += 1
            pair = (rng.uniform(box[0], box[1]), rng.uniform(box[2], box[3]), rng.uniform(box[0], box[1]), rng.uniform(box[2], box[3]))
            begin = time.perf_counter()
            answer = ref.route(*pair)
            elapsed = (time.perf_counter() - begin) * 1e6
            if answer is None:
                continue
            pairs.append(pair)
            answers.append(answer)
            ref_times.append(elapsed)
        pairs_file, out_file = os.path.join(work, f"{mode}.pairs"), os.path.join(work, f"{mode}.out")
        with open(pairs_file, "w") as f:
            for pair in pairs:
                f.write("%.9f %.9f %.9f %.9f\n" % pair)
        subprocess.run([binary, args.extract, mode, pairs_file, out_file], check=True)
        ours, our_times, failures = [], [], 0
        with open(out_file) as f:
            for line in f:
                fields = line.split()
                if fields[0] == "fail":
                    failures += 1
                    ours.append(None)
                    our_times.append(float(fields[1]))
                else:
                    ours.append((float(fields[0]), float(fields[1]), float(fields[3])))
                    our_times.append(float(fields[2]))
        diffs = [abs(o[0] - r[0]) / r[0] if r[0] > 0 else abs(o[0] - r[0]) for o, r in zip(ours, answers) if o is not None]
        within = lambda limit: sum(d <= limit for d in diffs) / len(pairs)
        print(f"\n== {mode}: {len(pairs)} routable pairs ({tried} drawn), DeviceSim failed {failures}")
        print(f"  length vs reference: within 0.01 %: {within(1e-4):.1%}, 0.1 %: {within(1e-3):.1%}, 1 %: {within(1e-2):.1%}; "
              f"median {percentile(diffs, 0.5):.2e}, p99 {percentile(diffs, 0.99):.2e}, max {max(diffs):.2e}")
        print(f"  query time (us): DeviceSim median {statistics.median(our_times):.1f} p99 {percentile(our_times, 0.99):.1f}; "
              f"reference (networkx) median {statistics.median(ref_times):.1f} p99 {percentile(ref_times, 0.99):.1f}")
        if routino:
            lengths, times = [], []
            for pair in pairs:
                metres, micros = routino_route(work, mode, pair)
                lengths.append(metres)
                times.append(micros)
            # Routino's length runs from and to the points where it joins the roads: compared with
            # DeviceSim's on-road length (without the straight legs to and from the street).
            both = [(o[2], r) for o, r in zip(ours, lengths) if o is not None and r is not None]
            ratios = [a / b for a, b in both if b > 0]
            print(f"  Routino ({ROUTINO_PROFILE[mode]}, shortest): routed {len(both)} of {len(pairs)}; DeviceSim on-road length / Routino length: "
                  f"median {statistics.median(ratios):.3f}, p10 {percentile(ratios, 0.1):.3f}, p90 {percentile(ratios, 0.9):.3f}; "
                  f"within 1 %: {sum(abs(x - 1) <= 0.01 for x in ratios) / len(ratios):.1%}, within 5 %: {sum(abs(x - 1) <= 0.05 for x in ratios) / len(ratios):.1%}")
            print(f"  query time (us): Routino (a routino-router process per query, database loaded each time) median {statistics.median(times):.0f}; "
                  f"ratio Routino / DeviceSim {statistics.median(times) / statistics.median(our_times):.0f}x")
        worst = sorted(range(len(diffs)), key=lambda i: -diffs[i])[:3] if diffs else []
        kept = [i for i, o in enumerate(ours) if o is not None]
        for i in worst:
            k = kept[i]
            print(f"  worst: {pairs[k]} DeviceSim {ours[k][0]:.1f} m, reference {answers[k][0]:.1f} m")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
