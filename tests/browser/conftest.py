"""Fixtures of the browser tests: real `navod serve` processes and Debian's Chromium.

- `server`: the base URL of one server for all of tests/browser, on a fresh SQLite file, keys
  optional. `keyed_server`: a second one with NAVOD_REQUIRE_KEY=1 and a key made for it
  (`.base`, `.secret`, `.headers`); started only if a test asks for it.
- `desktop_page` (1280x860) and `phone_page` (390x844, touch): a Tab (harness.py) on
  `server`, each in a new browser context; `page` is either, so a test using it runs at both.
  `keyed_desktop_page` is a desktop Tab on `keyed_server`.
- harness.screenshot(tab, name), harness.axe_violations(tab), harness.describe(violations).

The servers and the browser live as long as this package's tests (scope "package"), not the
session: a started sync Playwright leaves its asyncio loop registered as the running loop of
the main thread, and every later test that calls asyncio.run or anyio.run would fail.

Every test under tests/browser is marked `browser`. They run in the plain `pytest` of
`make test`, which installs chromium first; without it they fail and say how to get it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.browser.harness import INSTALL_HINT, LAUNCH_ARGS, Tab, find_chromium, open_tab
from tests.servers import running_server

HERE = Path(__file__).parent
SECRET = re.compile(r"^navod_\S+$", re.MULTILINE)
# All the tests of a session are one client address to the server: the default budget of
# 600 requests a minute is for a person, not for a suite of pages, so it is raised here.
OPEN = {"NAVOD_REQUIRE_KEY": "0", "NAVOD_RATE_LIMIT_PER_MINUTE": "100000"}


@dataclass(frozen=True)
class KeyedServer:
    base: str
    secret: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.secret}"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'navod.db'}"


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser-server")
    with running_server(sqlite_url(folder), folder / "server.log", OPEN) as base:
        yield base


def create_key(database_url: str, name: str) -> str:
    """A key made by `navod keys create` in the database at `database_url`: its secret.
    The server reads the key store on every request, so a key made after it started counts."""
    made = subprocess.run(
        [sys.executable, "-m", "api.cli", "keys", "create", "--name", name],
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = SECRET.search(made.stdout)
    assert made.returncode == 0 and found, made.stdout + made.stderr
    return found.group()


@pytest.fixture(scope="package")
def keyed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KeyedServer]:
    folder = tmp_path_factory.mktemp("browser-keyed-server")
    url = sqlite_url(folder)
    settings = {**OPEN, "NAVOD_REQUIRE_KEY": "1"}
    # Made after the start: the server migrates the new database before the CLI touches it.
    with running_server(url, folder / "server.log", settings) as base:
        yield KeyedServer(base, create_key(url, "browser tests"))


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    driver = sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    path = find_chromium()
    if path is None:
        pytest.fail(f"no Chromium for the browser tests: {INSTALL_HINT}", pytrace=False)
    chromium = playwright.chromium.launch(executable_path=path, args=LAUNCH_ARGS, headless=True)
    yield chromium
    chromium.close()


def _tab(browser: Browser, kind: str, base: str) -> Iterator[Tab]:
    tab = open_tab(browser, kind, base)
    yield tab
    tab.context.close()


@pytest.fixture
def desktop_page(browser: Browser, server: str) -> Iterator[Tab]:
    yield from _tab(browser, "desktop", server)


@pytest.fixture
def phone_page(browser: Browser, server: str) -> Iterator[Tab]:
    yield from _tab(browser, "phone", server)


@pytest.fixture(params=["desktop", "phone"])
def page(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[Tab]:
    yield from _tab(browser, request.param, server)


@pytest.fixture
def keyed_desktop_page(browser: Browser, keyed_server: KeyedServer) -> Iterator[Tab]:
    yield from _tab(browser, "desktop", keyed_server.base)
