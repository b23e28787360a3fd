#!/usr/bin/env python3
"""A PNG of a proton-viewer --html page, taken in headless Chromium (used for the README).

  scripts/viewer-screenshot.py PAGE.html OUT.png [--hover N]

--hover N moves the mouse over the N-th widest frame of the second row first, so that the
picture shows a tooltip. Needs chromium, chromium-driver and python3-selenium.
"""
import argparse
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("out")
    ap.add_argument("--hover", type=int, default=-1)
    ap.add_argument("--size", default="1400,820")
    args = ap.parse_args()
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                f"--window-size={args.size}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(Path(args.page).resolve().as_uri())
        if args.hover >= 0:
            x, y = driver.execute_script("""
                const fs = protonReport.frames.filter(f => f.row === 1).sort((a, b) => b.w - a.w);
                const f = fs[Math.min(arguments[0], fs.length - 1)];
                return [f.x + f.w / 2, f.y + f.h / 2];""", args.hover)
            canvas = driver.find_element(By.ID, "flame")
            ActionChains(driver).move_to_element_with_offset(
                canvas, x - canvas.size["width"] / 2, y - canvas.size["height"] / 2).perform()
        driver.save_screenshot(args.out)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
