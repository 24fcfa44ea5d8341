"""The rule table of docs/REFERENCE.md, generated from the full catalogue (every registered module):
`python -m irisrl.rules.table` prints it; a test keeps docs/REFERENCE.md in sync."""

from __future__ import annotations

import re
from pathlib import Path

from irisrl.rules.catalogue import all_rules

START = "<!-- rules:start -->"
END = "<!-- rules:end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table() -> str:
    lines = ["| ID | severity | scope | checks |", "|---|---|---|---|"]
    for r in all_rules():
        lines.append(f"| `{r.id}` | {r.severity} | {r.scope} | {_cell(r.title)} |")
    return "\n".join(lines) + "\n"


def readme_section(readme: str) -> str | None:
    """The text between the markers (without them), or None if absent."""
    m = re.search(re.escape(START) + r"\n(.*?)" + re.escape(END), readme, re.S)
    return m.group(1) if m else None


def update_readme(path: Path) -> bool:
    """Rewrite the section between the markers; True when the file changed."""
    text = path.read_text(encoding="utf-8")
    new = re.sub(re.escape(START) + r"\n.*?" + re.escape(END),
                 lambda _m: f"{START}\n{markdown_table()}{END}", text, flags=re.S)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main() -> None:
    import sys

    if sys.argv[1:] and sys.argv[1] == "--update":
        target = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("docs/REFERENCE.md")
        print("updated" if update_readme(target) else "up to date")
    else:
        print(markdown_table(), end="")


if __name__ == "__main__":
    main()
