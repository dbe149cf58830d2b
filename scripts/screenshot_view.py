"""The README's screenshot of `bench view`: a SmolLM2 render unit of outputs/default, in headless Chromium.

    python scripts/screenshot_view.py outputs/default docs/view-unit.png
"""
from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import orjson
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def main() -> None:
    run, target = Path(sys.argv[1]), Path(sys.argv[2])
    first = next(orjson.loads(line) for line in (run / "solves.jsonl").read_bytes().splitlines()
                 if b'"renderer":"smollm"' in line)
    proc = subprocess.Popen([sys.executable, "-c", "from runner.cli import main; main()", "view", str(run), "--port", "0"],
                            stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stderr.readline()).group(1)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for arg in ("--headless=new", "--no-sandbox", "--window-size=1200,1500"):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        try:
            driver.get(url + "unit?" + urlencode({"run": "default", "renderer": "smollm", "skeleton": first["skeleton"],
                                                  "rs": first["render_sample"]}))
            driver.save_screenshot(str(target))
        finally:
            driver.quit()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
