#!/usr/bin/env python3
"""Opens HTML reports in headless Chromium (Debian's `chromium`) through Playwright and prints, per
report, its size and the milliseconds from the start of navigation until the report's script had
drawn everything (`data-ready-ms`) and until the frame after that was painted (`data-painted-ms`),
plus any console errors.

    pip install playwright            # no `playwright install`: it drives /usr/bin/chromium
    python3 Benchmarks/report/open-in-chromium.py out/report.html [more.html ...] [--runs 3]
"""
import argparse, os, sys, time
from playwright.sync_api import sync_playwright

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("reports", nargs="+")
parser.add_argument("--runs", type=int, default=3, help="opens per report (the best is printed, and all)")
parser.add_argument("--chromium", default="/usr/bin/chromium")
args = parser.parse_args()

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox", "--disable-gpu"])
    for report in args.reports:
        url = "file://" + os.path.abspath(report)
        painted, ready, errors = [], [], []
        for _ in range(args.runs):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            start = time.monotonic()
            page.goto(url)
            page.wait_for_selector("body[data-painted-ms]", timeout=60_000)
            wall = (time.monotonic() - start) * 1000
            ready.append(int(page.get_attribute("body", "data-ready-ms")))
            painted.append(int(page.get_attribute("body", "data-painted-ms")))
            page.close()
        size = os.path.getsize(report) / 1_048_576
        print(f"{report}: {size:.1f} MB, drawn after {min(ready)} ms, painted after {min(painted)} ms "
              f"(best of {args.runs}; painted: {', '.join(map(str, painted))} ms), console errors: {len(errors)}")
        for error in errors[:5]:
            print("  error:", error)
    browser.close()
