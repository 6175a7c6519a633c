"""Make the pictures of the README and the docs (``docs/img/``) from the real program.

``web-table.png``: ``kierki web`` on a temporary database, one person (seat S) and three
heuristic bots at the standard profile, a few cards played by clicking, then the seat's page as
headless Chromium draws it (Playwright drives Debian's ``/usr/bin/chromium``; ``playwright
install`` is never run). ``terminal.txt``: ``kierki run --human 2`` at its second prompt, and
``terminal.png``: that text drawn as a terminal shows it (Pillow, which the ``plots`` extra's
matplotlib brings; a monospaced font with the suit symbols, DejaVu Sans Mono on Debian).

    python tools/screenshots.py            # needs the [web] and [plots] extras, Playwright and Chromium
    python tools/screenshots.py terminal   # the terminal's text and picture only
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
CHROMIUM = os.environ.get("KIERKI_CHROMIUM", "/usr/bin/chromium")
KIERKI = [sys.executable, "-m", "kierki_dsl"]


def terminal_text() -> str:
    """The terminal at the human seat's second turn of a seeded match."""
    got = subprocess.run(KIERKI + ["run", "rulesets/kierki_standard.yaml", "--human", "2", "--seed", "7", "--players",
                                   "heuristic"], input="1\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    turns = got.stdout.split("your card> ")
    return turns[1].lstrip("\n") + "your card> \n"


FONT = os.environ.get("KIERKI_MONO_FONT", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")


def terminal_png(text: str, path: Path, size: int = 16) -> None:
    """``text`` drawn light on dark in a monospaced font, a terminal's look, as a PNG."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(FONT, size)
    lines = text.rstrip("\n").split("\n")
    width = max(font.getlength(line) for line in lines)
    step = int(size * 1.4)
    image = Image.new("RGB", (int(width) + 2 * size, step * len(lines) + 2 * size), (30, 32, 36))
    draw = ImageDraw.Draw(image)
    for k, line in enumerate(lines):
        draw.text((size, size + k * step), line, font=font, fill=(225, 228, 232))
    image.save(path)


def web_table(path: Path) -> None:
    """A screenshot of a seat's page, a few cards into the first deal."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(KIERKI + ["web", "--port", "0", "--db", os.path.join(tmp, "web.sqlite3"),
                                            "--bot-delay", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, cwd=tmp, start_new_session=True)
        try:
            line = server.stdout.readline()
            base = re.search(r"(http://\S+?)/?$", line.strip()).group(1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport={"width": 1100, "height": 760})
                page.goto(base + "/")
                page.locator('input[name=ruleset][value="kierki_standard.yaml"]').check()
                for seat, kind in enumerate(["heuristic", "heuristic", "human", "heuristic"]):
                    page.select_option(f"#seat-{seat}", kind)
                page.click("#create")
                page.wait_for_selector("a.seat-link")
                page.goto(page.locator("a.seat-link").first.get_attribute("href"))
                for _ in range(3):  # play three cards, the lowest legal one each time
                    page.wait_for_function("document.body.dataset.turn === 'true'", timeout=30000)
                    before = page.evaluate("document.body.dataset.ply")
                    page.locator("#hand button.legal").last.click()
                    page.wait_for_function(f"document.body.dataset.ply !== {before!r}")
                page.wait_for_function("document.body.dataset.turn === 'true'", timeout=30000)
                page.wait_for_timeout(300)
                page.screenshot(path=str(path), full_page=True)
                browser.close()
        finally:
            server.kill()
            server.wait()
            for stream in (server.stdout, server.stderr):
                stream.close()


def main() -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    text = terminal_text()
    (IMG / "terminal.txt").write_text(text, "utf-8")
    terminal_png(text, IMG / "terminal.png")
    if sys.argv[1:] != ["terminal"]:
        web_table(IMG / "web-table.png")


if __name__ == "__main__":
    main()
