#!/bin/sh
# Makes sure Debian's Chromium is installed for tests/browser (`make test` runs this first).
# The browser tests drive the system's chromium: a test tool's own browser download
# (`playwright install`) cannot reach its host from the project's machines, apt can.
# Quick and silent when chromium is already there; fails loudly, never skips, when it cannot
# install it, because a suite that quietly leaves the browser tests out proves nothing.
set -eu

found() {
    [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1
}

if found; then
    exit 0
fi

fail() {
    echo "ensure_chromium: $1" >&2
    echo "ensure_chromium: the browser tests (tests/browser) need Debian's chromium package:" >&2
    echo "ensure_chromium:   apt-get install -y --no-install-recommends chromium   (as root)" >&2
    echo "ensure_chromium: or set NAVOD_CHROMIUM to a Chromium binary and run pytest directly." >&2
    exit 1
}

if [ -n "${NAVOD_CHROMIUM:-}" ]; then
    [ -x "$NAVOD_CHROMIUM" ] && exit 0
    fail "NAVOD_CHROMIUM=$NAVOD_CHROMIUM is not an executable file"
fi

command -v apt-get >/dev/null 2>&1 || fail "chromium is missing and this machine has no apt-get"

if [ "$(id -u)" -eq 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    fail "chromium is missing, and installing it needs root (no sudo here)"
fi

export DEBIAN_FRONTEND=noninteractive
install_chromium() {
    $as_root apt-get install -y --no-install-recommends chromium
}

echo "ensure_chromium: installing Debian's chromium for the browser tests" >&2
# A fresh machine may have no package lists yet: update only when the install needs it.
if ! install_chromium; then
    $as_root apt-get update || fail "apt-get update failed"
    install_chromium || fail "apt-get install chromium failed"
fi

found || fail "apt-get installed chromium, but neither /usr/bin/chromium nor chromium on PATH"
