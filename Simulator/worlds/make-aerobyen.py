#!/usr/bin/env python3
"""Writes aerobyen.osm.pbf: Ærøbyen, an invented small town (no real data) for the routes scenarios of
issue 48 (Scenarios/routes/aerobyen-*.yaml). Run from this folder: python3 make-aerobyen.py

Streets (foot, ~100 m blocks around 69.60 N, 18.90 E): Rue Ærø (west-east), Strandgata (west-east,
north), Kirkegata (south-north, west), Bakkegata (south-north, east), Torget, a square drawn as a
closed way (highway=pedestrian + area=yes), the Parkering (a parking drawn as a closed way,
highway=service + area=yes), two bakeries both named Bakeri, a kiosk, Holmen, a footpath on an
island joined to nothing else, and Kildetunnelen, a service tunnel (tunnel=yes, layer=-1) from the east
end of Rue Ærø to a dead end under the block north of Torget, below the world's place `kilden`."""

def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)

def zigzag(v):
    return (v << 1) ^ (v >> 63)

def key(n, wire):
    return varint(n << 3 | wire)

def f_bytes(n, b):
    return key(n, 2) + varint(len(b)) + b

def f_varint(n, v):
    return key(n, 0) + varint(v)

def packed(n, values):
    return f_bytes(n, b"".join(varint(v) for v in values))

strings = [""]
def s(text):
    if text not in strings:
        strings.append(text)
    return strings.index(text)

nodes = {}   # id -> (lat, lon, tags)
ways = []    # (id, refs, tags)
def node(i, lat, lon, tags=None):
    nodes[i] = (lat, lon, tags or {})

# A grid: rows at lat 69.6000, 69.6009 (~100 m apart), columns at lon 18.9000 .. 18.9075 (~100 m apart).
for r, lat in enumerate([69.6000, 69.6009]):
    for c in range(4):
        node(10 + r * 10 + c, lat, 18.9000 + c * 0.0025)
ways.append((1, [10, 11, 12, 13], {"highway": "residential", "name": "Rue Ærø"}))
ways.append((2, [20, 21, 22, 23], {"highway": "residential", "name": "Strandgata"}))
ways.append((3, [10, 20], {"highway": "residential", "name": "Kirkegata"}))
ways.append((4, [13, 23], {"highway": "residential", "name": "Bakkegata"}))
ways.append((5, [11, 21], {"highway": "footway"}))
# Torget: a square between the two streets (closed way), touching Rue Ærø at node 12.
node(30, 69.6000, 18.9050); node(31, 69.6004, 18.9050); node(32, 69.6004, 18.9062); node(33, 69.6000, 18.9062)
ways.append((6, [12, 31, 32, 33, 12], {"highway": "pedestrian", "area": "yes", "name": "Torget"}))
# Parkering: a parking south of Rue Ærø (closed service way, area=yes), touching node 11.
node(40, 69.5996, 18.9025); node(41, 69.5996, 18.9040); node(42, 69.5993, 18.9040); node(43, 69.5993, 18.9025)
ways.append((7, [11, 41, 42, 43, 11], {"highway": "service", "area": "yes", "name": "Parkering"}))
# Holmen: an island footpath 1 km off, joined to nothing.
node(50, 69.6100, 18.9000); node(51, 69.6103, 18.9010)
ways.append((8, [50, 51], {"highway": "footway", "name": "Holmestien"}))
# Kildetunnelen: a dead-end service tunnel one level down from the corner of Rue Ærø and Bakkegata
# (node 13, its portal), west under Torget to below the place `kilden` (69.60060, 18.90355): there the
# tunnel is 2 m away and Strandgata, on the surface, 33 m.
node(71, 69.6003, 18.9065); node(72, 69.6006, 18.9035)
ways.append((9, [13, 71, 72], {"highway": "service", "tunnel": "yes", "layer": "-1", "name": "Kildetunnelen"}))
# Named points: two bakeries named alike (west and far east), a kiosk.
node(60, 69.60005, 18.90010, {"name": "Bakeri", "shop": "bakery"})
node(61, 69.60095, 18.90740, {"name": "Bakeri", "shop": "bakery"})
node(62, 69.60085, 18.90500, {"name": "Kiosk", "shop": "kiosk"})

def block(kind, payload):
    blob = f_bytes(1, payload) + f_varint(2, len(payload))
    header = f_bytes(1, kind.encode()) + f_varint(3, len(blob))
    return len(header).to_bytes(4, "big") + header + blob

ids = sorted(nodes)
dense_ids, lats, lons, kv = [], [], [], []
last = (0, 0, 0)
for i in ids:
    lat, lon, tags = nodes[i]
    la, lo = round(lat * 1e7), round(lon * 1e7)
    dense_ids.append(zigzag(i - last[0])); lats.append(zigzag(la - last[1])); lons.append(zigzag(lo - last[2]))
    last = (i, la, lo)
    for k, v in tags.items():
        kv += [s(k), s(v)]
    kv.append(0)
dense = packed(1, dense_ids) + packed(8, lats) + packed(9, lons) + packed(10, kv)
way_bytes = b""
for wid, refs, tags in ways:
    deltas, prev = [], 0
    for ref in refs:
        deltas.append(zigzag(ref - prev)); prev = ref
    keys = [s(k) for k in tags]; vals = [s(v) for v in tags.values()]
    way_bytes += f_bytes(3, f_varint(1, wid) + packed(2, keys) + packed(3, vals) + packed(8, deltas))
group_nodes = f_bytes(2, f_bytes(2, dense))
group_ways = f_bytes(2, way_bytes)
table = f_bytes(1, b"".join(f_bytes(1, t.encode()) for t in strings))
primitive = table + group_nodes + group_ways
header = f_bytes(4, b"OsmSchema-V0.6") + f_bytes(4, b"DenseNodes")
with open("aerobyen.osm.pbf", "wb") as out:
    out.write(block("OSMHeader", header) + block("OSMData", primitive))
