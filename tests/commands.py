"""The CLI's commands run in this process, as the tests call them."""

from __future__ import annotations

import argparse

from hive.cli import records as records_cli


def run(argv: list[str]) -> int:
    """``hive convert|replay|scan ARGV...`` in this process: its exit status."""
    parser = argparse.ArgumentParser(prog="hive")
    records_cli.add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code
