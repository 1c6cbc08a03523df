"""networkx side of bench-roads: times the same route queries on the same graph.

Usage: python3 networkx_benchmark.py EDGES QUERIES ANSWERS_OUT
EDGES: "from to seconds" a line; QUERIES: "source target" a line.
Writes each query's travel time (repr) to ANSWERS_OUT and prints, per method, the median and p99
query time in microseconds as "method median p99".
"""
import sys
import time

import networkx as nx

graph = nx.DiGraph()
with open(sys.argv[1]) as edges:
    for line in edges:
        a, b, seconds = line.split()
        graph.add_edge(int(a), int(b), weight=float(seconds))
with open(sys.argv[2]) as queries:
    pairs = [tuple(map(int, line.split())) for line in queries]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


methods = {
    "dijkstra": lambda s, t: nx.shortest_path_length(graph, s, t, weight="weight"),
    "bidirectional_dijkstra": lambda s, t: nx.bidirectional_dijkstra(graph, s, t, weight="weight")[0],
}
answers = []
for name, method in methods.items():
    timings = []
    for source, target in pairs:
        begin = time.perf_counter()
        try:
            answer = method(source, target)
        except nx.NetworkXNoPath:
            answer = None
        timings.append((time.perf_counter() - begin) * 1e6)
        if name == "dijkstra":
            answers.append(answer)
    print(name, percentile(timings, 0.5), percentile(timings, 0.99), flush=True)
with open(sys.argv[3], "w") as out:
    for answer in answers:
        out.write(("unreachable" if answer is None else repr(answer)) + "\n")
