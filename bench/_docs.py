"""What the benches share: the machine's load, and their tables written into
docs/performance.md (each bench owns one ``## `` section of it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "performance.md"


def cpu_model():
    """The CPU's model name from /proc/cpuinfo ("unknown" elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            return next((ln.split(":", 1)[1].strip() for ln in f
                         if ln.lower().startswith(("model name", "hardware"))), "unknown")
    except OSError:
        return "unknown"


def git_head():
    """The checkout's short commit, marked when src/ differs from it."""
    try:
        git = ["git", "-C", str(ROOT)]
        head = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        if subprocess.run(git + ["status", "--porcelain", "--", "src"], capture_output=True,
                          text=True).stdout.strip():
            head += " (src/ modified)"
    except (OSError, subprocess.CalledProcessError):
        head = "unknown"
    return head


def load():
    """The one-minute load average (NaN where the system has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return float("nan")


def write_section(section, text, after=None):
    """Replace ``section`` (its heading line up to the next ``## ``) with ``text``, or
    put it after the section ``after`` (at the end when there is none); the rest stays
    as is."""
    doc = DOCS.read_text(encoding="utf-8")
    start = doc.find("\n" + section + "\n")
    if start >= 0:
        end = doc.find("\n## ", start + 1)
        doc = doc[:start + 1] + text + ("" if end < 0 else "\n" + doc[end + 1:])
    else:
        at = -1 if after is None else doc.find("\n" + after + "\n")
        end = -1 if at < 0 else doc.find("\n## ", at + 1)
        if end < 0:
            doc = doc.rstrip("\n") + "\n\n" + text
        else:
            doc = doc[:end + 1] + text + "\n" + doc[end + 1:]
    DOCS.write_text(doc, encoding="utf-8")
