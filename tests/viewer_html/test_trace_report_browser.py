"""The --trace-report --html page in headless Chromium (viewer.md §11.18): one strip per
stream is drawn at the full 1200 px, and the known 5 ms gap is a highlighted element with
its tooltip. A screenshot goes to $PROTON_ARTIFACT_DIR."""
import os
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from report_helpers import run_viewer
from trace_page_helpers import GAP_AT_NS, GAP_LENGTH_NS, STREAMS, write_trace

ARTIFACTS = Path(os.environ.get("PROTON_ARTIFACT_DIR", "build/artifacts/browser"))


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1600,1000", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def test_strips_and_highlighted_gap(browser, tmp_path):
    trace = write_trace(tmp_path / "t.chrome_trace")
    page = tmp_path / "report.html"
    run_viewer("--trace-report", "--html", page, trace)
    browser.get(page.resolve().as_uri())
    browser.save_screenshot(str(ARTIFACTS / "trace_report.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    strips = browser.find_elements(By.CSS_SELECTOR, "svg.strip")
    assert len(strips) == len(STREAMS)
    assert all(1200 <= s.size["width"] <= 1202 for s in strips)  # plus the border
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".lane .label")]
    assert labels == STREAMS
    gaps = strips[0].find_elements(By.CSS_SELECTOR, "rect.gap")
    assert len(gaps) >= 1
    gap = gaps[0]
    assert gap.get_attribute("data-at-ns") == str(GAP_AT_NS)
    assert gap.get_attribute("data-length-ns") == str(GAP_LENGTH_NS)
    # Drawn where the gap is: 10 us into a 5.04 ms trace, nearly the whole strip wide.
    assert gap.size["width"] > 1100 and gap.is_displayed()
    fill = browser.execute_script("return getComputedStyle(arguments[0]).fill", gap)
    assert fill not in ("", "none", "rgb(0, 0, 0)")
    tip = gap.find_element(By.TAG_NAME, "title").get_attribute("textContent")
    assert tip.startswith("idle 5.000 ms at 10.000 us") and "after: <b>&B" in tip
    assert strips[1].find_elements(By.CSS_SELECTOR, "rect.gap") == []
