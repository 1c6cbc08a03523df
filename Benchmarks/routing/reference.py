"""An independent reference router with DeviceSim's road rules (docs/road-rules.md): the extract read
with osmium, the graphs built in Python, routes by networkx's Dijkstra.

Written from the rules' documentation, not from the Swift code: segments are found by brute force over
all of them (numpy), turn restrictions are carried by an edge-based graph for cars (a node per
directed road segment, an edge per allowed turn) instead of DeviceSim's node copies.

Usage as a module: Reference(path, mode).route(lat1, lon1, lat2, lon2) -> (metres, seconds) or None.
"""
import math

import networkx as nx
import numpy as np
import osmium

EARTH = 6_371_008.8
JOIN_LIMIT = 100.0
OFF_ROAD = {"foot": 5 / 3.6, "bike": 5 / 3.6, "car": 10 / 3.6}
CLASS_SPEEDS = {  # km/h: car, bike, foot
    "motorway": (100, None, None), "motorway_link": (60, None, None), "trunk": (80, None, None), "trunk_link": (50, None, None),
    "primary": (50, 18, 5), "primary_link": (40, 18, 5), "secondary": (50, 18, 5), "secondary_link": (40, 18, 5),
    "tertiary": (40, 18, 5), "tertiary_link": (40, 18, 5), "unclassified": (40, 18, 5), "road": (40, 18, 5),
    "residential": (30, 18, 5), "service": (20, 15, 5), "track": (20, 15, 5), "living_street": (10, 10, 5),
    "cycleway": (None, 18, 5), "path": (None, 12, 5), "trail": (None, 12, 5),
    "pedestrian": (None, None, 5), "footway": (None, None, 5), "corridor": (None, None, 5), "steps": (None, None, 2.5),
}
MODE_INDEX = {"car": 0, "bike": 1, "foot": 2}
ACCESS_TAGS = {"foot": ["foot", "access"], "bike": ["bicycle", "vehicle", "access"], "car": ["motorcar", "motor_vehicle", "vehicle", "access"]}
ONEWAY_TAGS = {"foot": ["oneway:foot"], "bike": ["oneway:bicycle", "oneway:vehicle", "oneway"], "car": ["oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle", "oneway"]}
CLOSING = {"no", "private", "agricultural", "forestry", "delivery", "use_sidepath"}
IMPLICIT = {"walk": 7, "FI:urban": 50, "FI:rural": 80, "FI:living_street": 20, "FI:motorway": 120, "DE:urban": 50, "DE:rural": 100,
            "DE:living_street": 7, "SE:urban": 50, "SE:rural": 70}
MINOR_SERVICE = {"parking_aisle", "driveway", "alley", "drive-through", "drive-thru"}


def haversine(a, b):
    φ1, φ2 = math.radians(a[0]), math.radians(b[0])
    dφ, dλ = φ2 - φ1, math.radians(b[1] - a[1])
    h = math.sin(dφ / 2) ** 2 + math.cos(φ1) * math.cos(φ2) * math.sin(dλ / 2) ** 2
    return 2 * EARTH * math.atan2(math.sqrt(h), math.sqrt(1 - h))


def maxspeed(text):
    text = text.strip()
    if text in IMPLICIT:
        return IMPLICIT[text]
    for suffix, factor in (("mph", 1.609344), ("km/h", 1.0), ("", 1.0)):
        if text.endswith(suffix):
            try:
                value = float(text[: len(text) - len(suffix)].strip()) * factor
                return value if value > 0 else None
            except ValueError:
                continue
    return None


def speed(mode, tags, direction):
    """km/h of mode on a way with tags in direction ('forward'/'backward'), or None."""
    highway = tags.get("highway")
    if highway not in CLASS_SPEEDS or tags.get("area") == "yes":
        return None
    base = CLASS_SPEEDS[highway][MODE_INDEX[mode]]
    if mode != "car" and tags.get("motorroad") == "yes":
        return None
    if mode == "car" and highway == "service" and "service" in tags:
        if tags["service"] == "emergency_access":
            return None
        if tags["service"] in MINOR_SERVICE:
            base = 10
    access = None
    for key in ACCESS_TAGS[mode]:
        value = tags.get(key + ":" + direction, tags.get(key))
        if value is not None:
            access = value
            break
    if access is not None:
        if access in CLOSING:
            return None
        if mode == "bike" and access == "dismount":
            return 5
        if base is None:
            if mode == "bike":
                base = 5 if highway in ("pedestrian", "footway", "corridor") else (None if highway == "steps" else 12)
            elif mode == "foot":
                base = 5
            else:
                base = 10 if highway in ("cycleway", "path", "pedestrian", "footway") else None
    if base is None:
        return None
    limit = maxspeed(tags["maxspeed"]) if "maxspeed" in tags else None
    if limit is not None:
        if mode == "car":
            base = min(base, limit) if tags.get("service") in MINOR_SERVICE else limit
        elif mode == "bike":
            base = min(base, limit)
    return base if base > 0 else None


def off_the_surface(tags):
    """A way in a tunnel or on a bridge: positions join it only when no other street is within 100 m
    (GraphHopper's default snap preventions: its road environment TUNNEL or BRIDGE, any value of the
    tag but `no`)."""
    return any(key in tags and tags[key] != "no" for key in ("tunnel", "bridge"))


def directions(mode, tags):
    if mode == "bike" and tags.get("cycleway") in ("opposite", "opposite_lane", "opposite_track"):
        forward, backward = True, True
    else:
        value = next((tags[k] for k in ONEWAY_TAGS[mode] if k in tags), None)
        if value in ("yes", "true", "1"):
            forward, backward = True, False
        elif value in ("-1", "reverse"):
            forward, backward = False, True
        elif value in ("no", "false", "0"):
            forward, backward = True, True
        else:
            implied = mode != "foot" and (tags.get("junction") in ("roundabout", "circular") or tags.get("highway") == "motorway")
            forward, backward = True, not implied
    return (forward and speed(mode, tags, "forward") is not None, backward and speed(mode, tags, "backward") is not None)


class Extract(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.nodes, self.highways, self.other_ways, self.area_relations, self.restrictions = {}, [], {}, [], []

    def node(self, n):
        if n.location.valid():
            self.nodes[n.id] = (n.location.lat, n.location.lon)

    def way(self, w):
        tags = dict(w.tags)
        refs = [n.ref for n in w.nodes]
        if "highway" in tags:
            self.highways.append((w.id, refs, tags))
        else:
            self.other_ways[w.id] = refs

    def relation(self, r):
        tags = dict(r.tags)
        members = [(m.type, m.ref, m.role) for m in r.members]
        if tags.get("type") == "restriction":
            self.restrictions.append((tags, members))
        elif tags.get("type") == "multipolygon" and "highway" in tags:
            self.area_relations.append((r.id, tags, members))


def rings_of(pieces):
    pieces = [p for p in pieces if len(p) >= 2]
    rings = []
    while pieces:
        ring = list(pieces.pop(0))
        grown = True
        while ring[0] != ring[-1] and grown:
            grown = False
            for i, p in enumerate(pieces):
                if p[0] == ring[-1]:
                    ring += p[1:]
                elif p[-1] == ring[-1]:
                    ring += list(reversed(p))[1:]
                else:
                    continue
                pieces.pop(i)
                grown = True
                break
        if len(ring) >= 4 and ring[0] == ring[-1]:
            rings.append(ring)
    return rings


def crossing_pairs(rings, position, entrances):
    """Outline edges plus pairs of outline nodes that see each other across the area."""
    rings = [r for r in rings if all(n in position for n in r)]
    if not rings:
        return []
    o = position[rings[0][0]]
    east = math.cos(math.radians(o[0])) * EARTH * math.pi / 180
    north = EARTH * math.pi / 180
    xy = lambda n: ((position[n][1] - o[1]) * east, (position[n][0] - o[0]) * north)
    outline, pairs, nodes = [], [], []
    for ring in rings:
        for a, b in zip(ring, ring[1:]):
            if a != b:
                outline.append((xy(a), xy(b)))
                pairs.append((a, b))
        for n in ring:
            if n not in nodes:
                nodes.append(n)
    seg = np.array([[a[0], a[1], b[0], b[1]] for a, b in outline])
    ax, ay, bx, by = seg[:, 0], seg[:, 1], seg[:, 2], seg[:, 3]
    points = [xy(n) for n in nodes]
    full = len(nodes) <= 200
    eps = 1e-9
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            if not (full or nodes[i] in entrances or nodes[j] in entrances):
                continue
            p, q = points[i], points[j]
            d1 = (q[0] - p[0]) * (ay - p[1]) - (q[1] - p[1]) * (ax - p[0])
            d2 = (q[0] - p[0]) * (by - p[1]) - (q[1] - p[1]) * (bx - p[0])
            d3 = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
            d4 = (bx - ax) * (q[1] - ay) - (by - ay) * (q[0] - ax)
            proper = (((d1 > eps) & (d2 < -eps)) | ((d1 < -eps) & (d2 > eps))) & (((d3 > eps) & (d4 < -eps)) | ((d3 < -eps) & (d4 > eps)))
            if proper.any():
                continue
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            straddle = (ay > my) != (by > my)
            with np.errstate(divide="ignore", invalid="ignore"):
                x = ax + (my - ay) / (by - ay) * (bx - ax)
            if (straddle & (x > mx)).sum() % 2 == 1:
                pairs.append((nodes[i], nodes[j]))
    return pairs


class Reference:
    def __init__(self, path, mode, extract=None):
        self.mode = mode
        if extract is None:
            extract = Extract()
            extract.apply_file(path)
        self.position = extract.nodes
        way_nodes = dict(extract.other_ways)
        for wid, refs, _ in extract.highways:
            way_nodes[wid] = refs
        # Directed segments: (a, b) -> seconds (the fastest of parallel ways).
        segments = {}
        # Segments (a < b) the mode may use on a way on the surface (not a tunnel or a bridge).
        surface = set()

        def add(a, b, tags):
            if a == b or a not in self.position or b not in self.position:
                return
            forward, backward = directions(mode, tags)
            if (forward or backward) and not off_the_surface(tags):
                surface.add((min(a, b), max(a, b)))
            metres = haversine(self.position[a], self.position[b])
            for (u, v), allowed, direction in (((a, b), forward, "forward"), ((b, a), backward, "backward")):
                if allowed:
                    seconds = metres / (speed(mode, tags, direction) / 3.6)
                    segments[(u, v)] = min(segments.get((u, v), math.inf), seconds)

        entrances = set()
        for _, refs, tags in extract.highways:
            if any(speed(m, tags, d) for m in ("foot", "bike", "car") for d in ("forward", "backward")):
                entrances.update(refs)
            for a, b in zip(refs, refs[1:]):
                add(a, b, tags)
        areas = []
        for wid, refs, tags in extract.highways:
            if tags.get("area") == "yes" and tags.get("highway") in ("pedestrian", "footway") and len(refs) >= 4 and refs[0] == refs[-1]:
                areas.append(([refs], tags))
        for rid, tags, members in extract.area_relations:
            if tags.get("highway") in ("pedestrian", "footway"):
                pieces = [way_nodes[ref] for kind, ref, role in members if kind == "w" and role in ("outer", "inner", "") and ref in way_nodes]
                rings = rings_of(pieces)
                if rings:
                    areas.append((rings, {k: v for k, v in tags.items() if k != "area"}))
        for rings, tags in areas:
            tags = {k: v for k, v in tags.items() if k != "area"}
            if not any(directions(mode, tags)):
                continue
            for a, b in crossing_pairs(rings, self.position, entrances):
                add(a, b, tags)
        self.segments = segments
        node_graph = nx.DiGraph()
        node_graph.add_weighted_edges_from((u, v, s) for (u, v), s in segments.items())
        if mode == "car":
            self.build_edge_graph(extract, way_nodes)
            # Segments positions may join: one driven in a state of the edge graph's largest component.
            largest = max(nx.strongly_connected_components(self.graph), key=len)
            joinable = sorted({(min(u, v), max(u, v)) for (u, v) in largest})
        else:
            self.graph = node_graph
            largest = max(nx.strongly_connected_components(node_graph), key=len)
            # Segments positions may join: both ends in the largest component.
            joinable = sorted({(min(u, v), max(u, v)) for (u, v) in segments if u in largest and v in largest})
        self.joinable = joinable
        self.on_surface = np.array([pair in surface for pair in joinable], dtype=bool)
        self.seg_coords = np.array([[self.position[a][0], self.position[a][1], self.position[b][0], self.position[b][1]] for a, b in joinable])

    def build_edge_graph(self, extract, way_nodes):
        forbidden, only = set(), {}
        for tags, members in extract.restrictions:
            exceptions = [e.strip() for e in tags.get("except", "").split(";")]
            if "motorcar" in exceptions or "motor_vehicle" in exceptions:
                continue
            kind = tags.get("restriction:motorcar") or tags.get("restriction:motor_vehicle") or tags.get("restriction")
            froms = [m for m in members if m[2] == "from"]
            vias = [m for m in members if m[2] == "via"]
            tos = [m for m in members if m[2] == "to"]
            if not kind or len(froms) != 1 or len(vias) != 1 or len(tos) != 1 or vias[0][0] != "n" or froms[0][0] != "w" or tos[0][0] != "w":
                continue
            if froms[0][1] not in way_nodes or tos[0][1] not in way_nodes:
                continue
            via = vias[0][1]

            def neighbours(way):
                out = []
                for i, n in enumerate(way):
                    if n == via:
                        out += ([way[i - 1]] if i > 0 else []) + ([way[i + 1]] if i + 1 < len(way) else [])
                return out
            arriving, leaving = neighbours(way_nodes[froms[0][1]]), set(neighbours(way_nodes[tos[0][1]]))
            for u in arriving:
                if kind.startswith("no_"):
                    forbidden.update((u, via, w) for w in leaving)
                elif kind.startswith("only_"):
                    only.setdefault((u, via), set()).update(leaving)
        self.forbidden, self.only = forbidden, only
        out = {}
        for (u, v) in self.segments:
            out.setdefault(u, []).append(v)
        graph = nx.DiGraph()
        for (u, v), _ in self.segments.items():
            for w in out.get(v, []):
                if self.allows(u, v, w):
                    graph.add_edge((u, v), (v, w), weight=self.segments[(v, w)])
        self.graph = graph
        self.out = out

    def allows(self, u, v, w):
        if (u, v) in self.only and w not in self.only[(u, v)]:
            return False
        return (u, v, w) not in self.forbidden

    def join(self, lat, lon):
        """(distance, a, b, fraction, point) of the nearest point of a joinable segment, or None."""
        c = self.seg_coords
        east = math.cos(math.radians(lat)) * EARTH * math.pi / 180
        north = EARTH * math.pi / 180
        px, py = (c[:, 1] - lon) * east, (c[:, 0] - lat) * north
        qx, qy = (c[:, 3] - lon) * east, (c[:, 2] - lat) * north
        dx, dy = qx - px, qy - py
        sq = dx * dx + dy * dy
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(sq > 0, np.clip(-(px * dx + py * dy) / sq, 0, 1), 0)
        ex, ey = px + t * dx, py + t * dy
        d = np.hypot(ex, ey)
        point = lambda i: (c[i, 0] + (c[i, 2] - c[i, 0]) * t[i], c[i, 1] + (c[i, 3] - c[i, 1]) * t[i])
        # The nearest segment on the surface within the limit, else the nearest of all (tunnels and
        # bridges included).
        i = int(np.argmin(np.where(self.on_surface, d, np.inf)))
        if not (self.on_surface[i] and haversine((lat, lon), point(i)) <= JOIN_LIMIT):
            i = int(np.argmin(d))
        if d[i] > JOIN_LIMIT * 1.001:
            return None
        a, b = self.joinable[i]
        return haversine((lat, lon), point(i)), a, b, float(t[i]), point(i)

    def route(self, lat1, lon1, lat2, lon2):
        """(metres, seconds) of the fastest route, None when it fails."""
        j1, j2 = self.join(lat1, lon1), self.join(lat2, lon2)
        if j1 is None or j2 is None:
            return None
        off = OFF_ROAD[self.mode]
        d1, a1, b1, f1, p1 = j1
        d2, a2, b2, f2, p2 = j2
        if (a1, b1, f1) == (a2, b2, f2):
            straight = haversine((lat1, lon1), (lat2, lon2))
            return straight, straight / off
        length1 = haversine(self.position[a1], self.position[b1])
        length2 = haversine(self.position[a2], self.position[b2])
        best = None
        if (a1, b1) == (a2, b2):
            share = f2 - f1
            seconds = self.segments.get((a1, b1) if share >= 0 else (b1, a1))
            if seconds is not None:
                best = (abs(share) * seconds, abs(share) * length1)
        g = self.graph.copy() if False else self.graph
        source, target = ("S",), ("T",)
        added = []

        def edge(u, v, seconds, metres):
            if g.has_edge(u, v) and g[u][v]["weight"] <= seconds:
                return
            g.add_edge(u, v, weight=seconds, metres=metres)
            added.append((u, v))
        # Departures from the first join point, arrivals at the second (share of each segment).
        for (u, v, share) in ((a1, b1, 1 - f1), (b1, a1, f1)):
            if (u, v) in self.segments:
                node = (u, v) if self.mode == "car" else v
                if node in g:
                    edge(source, node, share * self.segments[(u, v)], share * length1)
        for (u, v, share) in ((a2, b2, f2), (b2, a2, 1 - f2)):
            if (u, v) in self.segments:
                if self.mode == "car":
                    for w in [x for x in g.predecessors((u, v))] if (u, v) in g else []:
                        edge(w, target, share * self.segments[(u, v)], share * length2)
                    # A route that starts on the same directed segment.
                else:
                    if u in g:
                        edge(u, target, share * self.segments[(u, v)], share * length2)
        # For cars, arrivals from the state "at u" are the states (x, u) that may turn onto (u, v).
        try:
            seconds, path = nx.single_source_dijkstra(g, source, target, weight="weight")
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            seconds, path = None, None
        finally:
            metres_of = {}
            for (u, v) in added:
                metres_of[(u, v)] = g[u][v]["metres"]
            g.remove_nodes_from([source, target])
        if seconds is not None:
            metres = metres_of[(path[0], path[1])] + metres_of[(path[-2], path[-1])]
            inner = path[1:-1]
            if self.mode == "car":
                # States are directed segments; the path's segments after the first are driven whole.
                for (u, v) in inner[1:]:
                    metres += haversine(self.position[u], self.position[v])
            else:
                for u, v in zip(inner, inner[1:]):
                    metres += haversine(self.position[u], self.position[v])
            if best is None or seconds < best[0]:
                best = (seconds, metres)
        if best is None:
            return None
        return d1 + best[1] + d2, (d1 + d2) / off + best[0]
