"""The rule table (docs/REFERENCE.md "Checks") is generated from the full catalogue and kept in sync."""

from __future__ import annotations

from pathlib import Path

from irisrl.rules.catalogue import all_rules
from irisrl.rules.table import markdown_table, readme_section

README = Path(__file__).resolve().parents[2] / "docs" / "REFERENCE.md"


def test_readme_rule_table_matches_the_catalogue() -> None:
    section = readme_section(README.read_text(encoding="utf-8"))
    assert section is not None, "docs/REFERENCE.md lacks the <!-- rules:start --> / <!-- rules:end --> markers"
    assert section == markdown_table(), "run: .venv/bin/python -m irisrl.rules.table --update docs/REFERENCE.md"


def test_table_lists_every_rule_once() -> None:
    table = markdown_table()
    for r in all_rules():
        assert table.count(f"| `{r.id}` |") == 1
