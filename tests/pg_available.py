"""Exit 0 when the PostgreSQL at argv[1] accepts connections (used by `make test`)."""

from __future__ import annotations

import sys

import psycopg


def main(url: str) -> int:
    try:
        with psycopg.connect(url, connect_timeout=3):
            return 0
    except psycopg.Error:
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
