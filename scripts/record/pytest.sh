#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/pytest/<case>.jsonl from real runs of the fixture
# projects, with the environment run-tests sets and Debian's pytest (/usr/bin/python3,
# pytest 7.2: the one scripts/setup-toolchains.sh installs). The temp root becomes
# `<root>`, durations become 0.001 and pids 1.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" pytest
python="${PYTHON:-/usr/bin/python3}"

# record <case> <project> [VAR=value ...] -- [pytest arguments...]
record() {
  local name="$1" project="$2"; shift 2
  local vars=()
  while [ "$1" != "--" ]; do vars+=("$1"); shift; done
  shift
  local root
  root="$(fresh_copy "$project" "$name")"
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
  ROOT="$root" perl -pe 's/\Q$ENV{ROOT}\E/<root>/g; s/"duration": [0-9.e-]+/"duration": 0.001/g; s/"pid": \d+/"pid": 1/g' \
    "$report" >"$out/$name.jsonl"
}

record mixed pytest-mixed --
record collect-error pytest-collect-error --
record filtered pytest-mixed 'RUN_TESTS_PYTEST_FILTER=\[x\] and|TestCart' --
record rerun pytest-mixed -- 'tests/test_widget.py::test_words[[x] and y]' tests/test_widget.py::test_leaks tests/test_text.py
record not-found pytest-mixed -- tests/test_widget.py::test_renamed tests/test_text.py::test_upcase
record no-tests pytest-mixed RUN_TESTS_PYTEST_FILTER=no_such_test --
record xpass pytest-xpass --
# A python3 without its site-packages: the launcher falls back to Debian's pytest on PATH
# and says so in the report's first line.
printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' >"$work/nosite-python3"
chmod +x "$work/nosite-python3"
python="$work/nosite-python3" PATH=/usr/bin:/bin record fallback pytest-mixed -- tests/test_text.py

# A run killed mid-write: the mixed report without its session line, cut inside the last test line.
"$python" - "$out/mixed.jsonl" >"$out/truncated.jsonl" <<'PY'
import sys
lines = [l for l in open(sys.argv[1], encoding="utf-8") if not l.startswith('{"type": "session"')]
last = lines.pop()
sys.stdout.write("".join(lines) + last[: len(last) // 2])
PY

echo "recorded into $out; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
