#!/usr/bin/env python3
"""pandana's contraction hierarchy on the graphs and pairs route-hierarchy wrote, beside DeviceSim's.

Usage: python3 Benchmarks/routing/pandana-compare.py DIR [DIR ...]   (pip install pandana)

For each DIR and mode (car, foot): builds a pandana Network (twoway=False, the edges' seconds as
weights) and times `shortest_path_lengths` over all pairs in one call (pandana's fast, vectorised
form, on as many threads as it likes; its time per query is the call's time over the pair count, wall
and CPU) and `shortest_path_length` one pair
at a time (median), then checks its lengths against DeviceSim's and prints both side by side. The
fair comparison is CPU against CPU with the queries in sequence: pandana's CPU time a query (all its
threads) against DeviceSim's (route-hierarchy's "all pairs in sequence", one thread).
"""
import sys
import time

import numpy as np
import pandas as pd
import pandana


def load(directory, mode):
    nodes = np.loadtxt(f"{directory}/{mode}-nodes.txt", ndmin=2)
    edges = np.loadtxt(f"{directory}/{mode}-edges.txt", ndmin=2)
    pairs = np.loadtxt(f"{directory}/{mode}-pairs.txt", ndmin=2)
    swift = np.loadtxt(f"{directory}/{mode}-swift.txt")
    return nodes, edges, pairs, swift


def main():
    for directory in sys.argv[1:]:
        for mode in ("car", "foot"):
            try:
                nodes, edges, pairs, swift = load(directory, mode)
            except OSError:
                continue
            ids = pd.Index(np.arange(len(nodes)), name="id")
            begin = time.perf_counter()
            network = pandana.Network(pd.Series(nodes[:, 0], index=ids), pd.Series(nodes[:, 1], index=ids),
                                      pd.Series(edges[:, 0].astype(np.int64)), pd.Series(edges[:, 1].astype(np.int64)),
                                      pd.DataFrame({"seconds": edges[:, 2]}), twoway=False)
            build = time.perf_counter() - begin
            origins, destinations = pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)
            network.shortest_path_lengths(origins[:10], destinations[:10])  # warm up
            runs, cpu = [], []
            for _ in range(5):
                begin, begin_cpu = time.perf_counter(), time.process_time()
                lengths = np.array(network.shortest_path_lengths(origins, destinations))
                runs.append((time.perf_counter() - begin) / len(pairs) * 1e6)
                cpu.append((time.process_time() - begin_cpu) / len(pairs) * 1e6)
            vectorised, vectorised_cpu = sorted(runs)[2], sorted(cpu)[2]
            single = []
            for a, b in zip(origins[:500], destinations[:500]):
                begin = time.perf_counter()
                network.shortest_path_length(a, b)
                single.append((time.perf_counter() - begin) * 1e6)
            reached = pairs[:, 2] >= 0
            # pandana reports unreachable pairs as a huge number (4294967.295 in its units).
            relative = np.abs(lengths[reached] - pairs[reached, 2]) / np.maximum(pairs[reached, 2], 1e-9)
            print(f"{directory} {mode}: {len(nodes)} nodes, {len(edges)} edges; pandana's hierarchy built in {build * 1000:.0f} ms")
            print(f"  pandana shortest_path_lengths (all pairs in one call): {vectorised:.1f} µs a query ({vectorised_cpu:.1f} µs CPU, all threads); "
                  f"shortest_path_length one at a time: median {np.median(single):.1f} µs")
            print(f"  DeviceSim hierarchy: time only median {swift[0]:.1f} µs (mean {swift[1]:.1f}), with the path median {swift[2]:.1f} µs "
                  f"(mean {swift[3]:.1f}); A* with landmarks median {swift[4]:.1f} µs (mean {swift[5]:.1f})")
            print(f"  pandana / DeviceSim (vectorised pandana against DeviceSim's mean, time only): {vectorised / swift[1]:.2f}; "
                  f"with the path: {vectorised / swift[3]:.2f}")
            if len(swift) >= 8:
                print(f"  DeviceSim all pairs in sequence (CPU): time only {swift[6]:.1f} µs a query, with the path {swift[7]:.1f} µs; "
                      f"pandana CPU / DeviceSim CPU (time only): {vectorised_cpu / swift[6]:.2f}")
            print(f"  lengths: {reached.sum()} pairs routed; pandana within 1e-3 relative of DeviceSim's: {(relative < 1e-3).mean() * 100:.1f} %, "
                  f"max {relative.max():.2g} (pandana stores weights as rounded fixed point)")


if __name__ == "__main__":
    main()
