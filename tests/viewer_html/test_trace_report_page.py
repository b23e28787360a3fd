"""proton-viewer --trace-report --html (viewer.md §11.18): the page is written, holds one
strip per stream with the largest gap highlighted, escapes kernel names, and a bad --html
path is a one-line error that leaves no page."""
import re

from report_helpers import run_viewer
from trace_page_helpers import GAP_AT_NS, GAP_LENGTH_NS, STREAMS, write_trace


def test_page_holds_strips_and_tables(tmp_path):
    trace = write_trace(tmp_path / "t.chrome_trace")
    page = tmp_path / "report.html"
    result = run_viewer("--trace-report", "--html", page, trace)
    assert "5.000 ms" in result.stdout          # the text report is still printed
    html = page.read_text()
    strips = re.findall(r'<svg class="strip" data-rects="(\d+)"', html)
    assert len(strips) == len(STREAMS)
    assert strips[1] == "1"                      # 200 back-to-back kernels: one rectangle
    assert (f'<rect class="gap" data-at-ns="{GAP_AT_NS}" data-length-ns="{GAP_LENGTH_NS}"'
            in html)
    assert "&lt;b&gt;&amp;B" in html and "<b>&B" not in html
    for stream in STREAMS:
        assert f'<td class="name">{stream}</td>' in html
    assert "http://" not in html and "https://" not in html and "<script" not in html


def test_bad_html_path_is_one_line_error(tmp_path):
    trace = write_trace(tmp_path / "t.chrome_trace")
    page = tmp_path / "missing-dir" / "report.html"
    result = run_viewer("--trace-report", "--html", page, trace, check=False)
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "cannot write" in result.stderr
    assert not page.exists()
