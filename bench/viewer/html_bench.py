#!/usr/bin/env python3
"""The --html page on large profiles (viewer.md §11.12): page size per node, the viewer's time
to write it, and the time until the page is interactive in headless Chromium (Selenium).

  html_bench.py [--metrics M] [--depth D] VIEWER PROFILE [PROFILE...]
                                           (profiles from gen_profile.py)

"ready" is performance.now() when the page's script has drawn the graph and the table
(measured from navigation start, so it includes reading and parsing the file).
"""
import argparse
import os
import subprocess
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main(viewer, profiles, metrics, depth):
    driver = browser()
    driver.set_page_load_timeout(600)
    driver.set_script_timeout(600)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for profile in profiles:
                page = os.path.join(tmp, "page.html")
                start = time.monotonic()
                subprocess.run([viewer, "-m", metrics, "-d", str(depth), "--html", page, profile],
                               check=True, stdout=subprocess.DEVNULL)
                write_s = time.monotonic() - start
                size = os.path.getsize(page)
                driver.get("file://" + page)
                ready, nodes, drawn, timings = driver.execute_script(
                    "const r = window.protonReport;"
                    "return [r.state.readyMs, r.data.nodes.size, r.frames.length,"
                    " r.state.timings];")
                start = time.monotonic()
                driver.execute_script("protonReport.search('forward'); protonReport.zoomTo(1);")
                action_ms = 1000 * (time.monotonic() - start)
                print(f"{os.path.basename(profile)}: {nodes} nodes, page {size / 2**20:.1f} MiB "
                      f"({size / nodes:.1f} B/node), written in {write_s:.2f} s, "
                      f"ready in {ready:.0f} ms, {drawn} frames drawn after zoom, "
                      f"search+zoom {action_ms:.0f} ms; ms: " +
                      ", ".join(f"{k} {v:.0f}" for k, v in timings.items()))
    finally:
        driver.quit()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--metrics", default="time/us,flops16")
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("viewer")
    ap.add_argument("profiles", nargs="+")
    args = ap.parse_args()
    main(args.viewer, args.profiles, args.metrics, args.depth)
