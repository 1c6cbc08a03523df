"""Reference travel times: networkx's Dijkstra on a graph exported by RouteSearchTests.

Usage: python3 networkx_travel_times.py EDGES QUERIES
EDGES: one directed edge a line, "from to seconds"; QUERIES: "source target" a line.
Prints one line per query: the least travel time (repr, exact) or "unreachable".
"""
import sys

import networkx as nx

graph = nx.DiGraph()
with open(sys.argv[1]) as edges:
    for line in edges:
        a, b, seconds = line.split()
        graph.add_edge(int(a), int(b), weight=float(seconds))
with open(sys.argv[2]) as queries:
    for line in queries:
        source, target = map(int, line.split())
        try:
            print(repr(nx.shortest_path_length(graph, source, target, weight="weight")))
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            print("unreachable")
