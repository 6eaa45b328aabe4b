#!/usr/bin/env python3
"""Two kept bench runs side by side: `python3 bench/compare.py before.json after.json > out.md`.

Prints one Markdown table row per figure of the second run: scenario, metric, the first run's
value, the second's, the unit and the change (after / before). Figures only one run has are
shown with an empty cell for the other.
"""
import json
import sys


def figures(path):
    with open(path) as f:
        run = json.load(f)
    return run, {(x["scenario"], x["metric"]): x for x in run["figures"]}


def cell(value):
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.1f}" if abs(value) < 100 else f"{value:.0f}"
    return str(value)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare.py BEFORE.json AFTER.json")
    before_run, before = figures(sys.argv[1])
    after_run, after = figures(sys.argv[2])
    print(f"| scenario | metric | {before_run.get('label') or 'before'} | {after_run.get('label') or 'after'} | unit | after / before |")
    print("| --- | --- | ---: | ---: | --- | ---: |")
    keys = list(after) + [k for k in before if k not in after]
    for key in keys:
        b = before.get(key, {}).get("value")
        a = after.get(key, {}).get("value")
        unit = (after.get(key) or before.get(key))["unit"]
        ratio = f"{a / b:.2f}" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b not in (0,) else ""
        print(f"| {key[0]} | {key[1]} | {cell(b)} | {cell(a)} | {unit} | {ratio} |")


if __name__ == "__main__":
    main()
