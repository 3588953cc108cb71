#!/usr/bin/env python3
"""docs/DATASET.md's schema section, generated from `lightcode dataset --schema`.

  /usr/bin/python3 tools/dataset_report.py build/lightcode            # rewrite the section
  /usr/bin/python3 tools/dataset_report.py build/lightcode --check    # exit 1 when it is stale

The section lies between `<!-- dataset-schema:begin -->` and `<!-- dataset-schema:end -->`; the
schema itself is declared once, in sim/dataset/schema.cpp. The learned baseline's section is
tools/learned_baseline.py's (--doc).
"""
import argparse
import os
import subprocess
import sys

BEGIN, END = "<!-- dataset-schema:begin -->", "<!-- dataset-schema:end -->"
DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "DATASET.md")


def split(content, doc):
    if BEGIN not in content or END not in content:
        sys.exit(f"{doc}: no {BEGIN} ... {END} section")
    head, rest = content.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    return head, body, tail


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the lightcode program")
    parser.add_argument("--doc", default=DOC, help="the Markdown file (default: docs/DATASET.md)")
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting; exit 1 when they differ")
    args = parser.parse_args()
    schema = subprocess.run([args.binary, "dataset", "--schema"], check=True, capture_output=True, text=True).stdout
    with open(args.doc) as f:
        content = f.read()
    head, body, tail = split(content, args.doc)
    wanted = "\n" + schema
    if args.check:
        if body != wanted:
            print(f"{args.doc}: the schema section differs from `lightcode dataset --schema`; run "
                  f"tools/dataset_report.py {args.binary}")
            return 1
        print(f"{args.doc}: the schema section is `lightcode dataset --schema`")
        return 0
    with open(args.doc, "w") as f:
        f.write(head + BEGIN + wanted + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
