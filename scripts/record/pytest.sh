#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/pytest/<case>.jsonl from real runs of the fixture
# projects, with the environment run-tests sets and Debian's pytest (/usr/bin/python3,
# pytest 7.2: the one scripts/setup-toolchains.sh installs). The report is run-tests'
# event format (schema/events.schema.json). The temp root becomes `<root>`, durations
# become 1 ms and pids 1.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" pytest
python="${PYTHON:-/usr/bin/python3}"

# prepare <root>: what a case adds to its copy of the project before pytest runs.
prepare() { :; }

# record <case> <project> [VAR=value ...] -- [pytest arguments...]
record() {
  case_setup "$@"
  set -- "${args[@]+"${args[@]}"}"
  prepare "$root"
  local report="$work/$name.report.jsonl"
  echo "== $name: (cd $project && pytest $*)" >&2
  (
    cd "$root"
    env -u PYTEST_ADDOPTS -u PYTEST_PLUGINS "${vars[@]+"${vars[@]}"}" \
      PYTHONPATH="$repo/reporters/pytest" \
      PYTEST_PLUGINS=run_tests_pytest \
      RUN_TESTS_PYTEST_REPORT="$report" \
      "$python" "$repo/reporters/pytest/run_pytest.py" "$@" >"$work/$name.stdout" 2>&1
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  ROOT="$root" perl -pe 's/\Q$ENV{ROOT}\E/<root>/g; s/"duration_ms": [0-9.e-]+/"duration_ms": 1/g; s/"pid": \d+/"pid": 1/g' \
    "$report" >"$out/$name.jsonl"
}

record mixed pytest-mixed --
record collect-error pytest-collect-error --
record filtered pytest-mixed 'RUN_TESTS_PYTEST_FILTER=\[x\] and|TestCart' --
record rerun pytest-mixed -- 'tests/test_widget.py::test_words[[x] and y]' tests/test_widget.py::test_leaks tests/test_text.py
record not-found pytest-mixed -- tests/test_widget.py::test_renamed tests/test_text.py::test_upcase
record no-tests pytest-mixed RUN_TESTS_PYTEST_FILTER=no_such_test --
record xpass pytest-xpass --
# A failed call then a teardown error, a message over 2 KiB, a module that skips itself.
prepare() {
  cat >"$1/tests/test_phases.py" <<'PY'
import pytest


@pytest.fixture
def busy():
    yield
    raise OSError("busy")


def test_fails_then_teardown_errors(busy):
    assert 1 == 2


def test_long_message():
    pytest.fail("\u00e9" * 3000)
PY
  printf 'import pytest\n\npytest.skip("no database here", allow_module_level=True)\n' >"$1/tests/test_module_skip.py"
}
record phases pytest-mixed -- tests/test_phases.py tests/test_module_skip.py
# Interrupted inside a test (as by Ctrl-C): exit 2 with no collection error.
prepare() { printf 'def test_stop():\n    raise KeyboardInterrupt\n' >"$1/tests/test_stop.py"; }
record interrupted pytest-mixed -- tests/test_text.py tests/test_stop.py
# A plugin that raises in a hook: pytest's INTERNALERROR, exit 3.
prepare() { printf 'def pytest_collection_modifyitems(items):\n    raise RuntimeError("a plugin broke")\n' >"$1/tests/conftest.py"; }
record internal-error pytest-mixed -- tests/test_text.py
prepare() { :; }
# A python3 without its site-packages: the launcher falls back to Debian's pytest on PATH
# and says so in the report's first line.
printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' >"$work/nosite-python3"
chmod +x "$work/nosite-python3"
python="$work/nosite-python3" PATH=/usr/bin:/bin record fallback pytest-mixed -- tests/test_text.py

# A run killed mid-write: the mixed report without its run_end, cut inside the last test_end.
"$python" - "$out/mixed.jsonl" >"$out/truncated.jsonl" <<'PY'
import sys
lines = [l for l in open(sys.argv[1], encoding="utf-8") if not l.startswith('{"event": "run_end"')]
last = lines.pop()
sys.stdout.write("".join(lines) + last[: len(last) // 2])
PY

echo "recorded into $out; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
