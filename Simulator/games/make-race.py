#!/usr/bin/env python3
"""Writes Scenarios/campus-game/race-12-players-week.yaml: twelve players race for the objectives of
Simulator/games/tu-campus.yaml for a week (Monday 4 May to Sunday 10 May 2026, Europe/Berlin).

The expectations are computed here, independently of DeviceSim: each player's daily and weekly points,
and the scoreboards' order (more points first; equal points, whoever reached the score first; then the
account id), with the server's latency (200 ms) deciding when a score is reached.

    python3 Simulator/games/make-race.py > Scenarios/campus-game/race-12-players-week.yaml
"""
import datetime, random

OBJECTIVES = [("library", 10), ("mensa", 5), ("main-building", 15)]
LATENCY = 0.2
START = datetime.datetime(2026, 5, 4, 5, 0, tzinfo=datetime.timezone.utc)  # Monday 07:00 CEST
players = [f"p{i:02d}" for i in range(1, 13)]
rng = random.Random(2026)

def fmt(seconds):
    whole = int(round(seconds * 1000))
    ms = whole % 1000
    s = whole // 1000
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    text = (f"{h}h" if h else "") + (f"{m}m" if m else "") + (f"{s}s" if s else "")
    if ms:
        text += f"{ms}ms"
    return text or "0s"

steps, expects = [], []
daily = {}    # (day, player) -> [score, reachedAt]
weekly = {}   # player -> [score, reachedAt]
for day in range(7):
    day_start = day * 86400
    for index, player in enumerate(players):
        if rng.random() < 0.15:          # a day off
            continue
        t = day_start + 3600 + index * 600 + rng.randrange(0, 300)   # from 08:00 local
        steps.append((t, player, "join-game", None))
        joined = t + LATENCY
        daily.setdefault((day, player), [0, joined])
        weekly.setdefault(player, [0, joined])
        t += 60
        chosen = [o for o in OBJECTIVES if rng.random() < 0.6]
        for objective, points in chosen:
            steps.append((t, player, "teleport", objective))
            steps.append((t + 30, player, "objective-achieved", None))
            accepted = t + 30 + LATENCY
            for table in (daily[(day, player)], weekly[player]):
                table[0] += points
                table[1] = accepted
            t += 300

def ranking(standings):
    return sorted(standings.items(), key=lambda item: (-item[1][0], item[1][1], item[0]))

def rows_text(standings, requester):
    ordered = ranking(standings)
    rows = [(rank + 1, player, score) for rank, (player, (score, _)) in enumerate(ordered[:10])]
    if requester not in [row[1] for row in rows]:
        position = next((i for i, (player, _) in enumerate(ordered) if player == requester), None)
        rows.append((position + 1, requester, ordered[position][1][0]) if position is not None else (len(ordered) + 1, requester, 0))
    you = next(row for row in rows if row[1] == requester)
    return "|".join(f"{r}. {p} {s}" for r, p, s in rows), f"{you[0]}. {you[1]} {you[2]}"

# Sunday 22:00 local (20:00 UTC): every player looks at both boards.
sunday = 6 * 86400 + 15 * 3600
sunday_daily = {p: v for (d, p), v in daily.items() if d == 6}
for index, player in enumerate(players):
    at = sunday + index * 10
    steps.append((at, player, "view-daily-scoreboard", None))
    steps.append((at + 5, player, "view-weekly-scoreboard", None))
    rows, you = rows_text(sunday_daily, player)
    expects.append(f'  - {{ event: scoreboard.shown, device: {player}, where: {{ period: daily, since: 2026-05-10, you: "{you}" }}, within: [{fmt(at)}, {fmt(at + 1)}] }}')
    rows, you = rows_text(weekly, player)
    expects.append(f'  - {{ event: scoreboard.shown, device: {player}, where: {{ period: weekly, since: 2026-05-04, rows: "{rows}", you: "{you}" }}, within: [{fmt(at + 5)}, {fmt(at + 6)}] }}')
# Monday 08:00 local: a new day and a new week for everyone.
monday = 7 * 86400 + 3600
for index, player in enumerate(players):
    at = monday + index * 10
    steps.append((at, player, "view-weekly-scoreboard", None))
    expects.append(f'  - {{ event: scoreboard.shown, device: {player}, where: {{ period: weekly, since: 2026-05-11, you: "1. {player} 0" }}, within: [{fmt(at)}, {fmt(at + 1)}] }}')

print("# Written by Simulator/games/make-race.py; the expectations are computed there, not by DeviceSim.")
print("name: twelve players race for a week")
print("description: >")
print("  Campus game, every use case at scale: twelve players join each day's game (most days), walk to")
print("  objectives and claim them, for a week in Berlin time. On Sunday at 22:00 each player's daily and")
print("  weekly rows are checked against totals computed independently, and the weekly board seen by the")
print("  last player shows the top ten plus their own row; on Monday at 08:00 the week has rolled over.")
print("world: ../../Simulator/worlds/campus.yaml")
print("start-time: 2026-05-04T05:00:00Z")
print("devices:")
for player in players:
    # A fix every 10 s and no radios keep a week of twelve phones cheap; the game needs only GPS.
    print(f"  - {{ id: {player}, at: south-gate, gps: {{ interval: 10s }}, wifi: {{ enabled: false }}, bluetooth: {{ enabled: false }},")
    print(f"      app: {{ name: campus-game, settings: {{ game: ../../Simulator/games/tu-campus.yaml }} }} }}")
print("timeline:")
for t, player, action, argument in sorted(steps, key=lambda s: (s[0], s[1])):
    extra = f", to: {argument}" if action == "teleport" else ""
    print(f"  - {{ at: {fmt(t)}, device: {player}, do: {action}{extra} }}")
print("expect:")
print("\n".join(expects))
print(f"duration: {fmt(monday + 600)}")
