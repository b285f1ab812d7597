#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/unittest/<case>.jsonl from real runs of the fixture
# projects, with the environment run-tests sets (reporters/unittest first on PYTHONPATH,
# RUN_TESTS_UNITTEST_EVENTS) and Debian's python3 (/usr/bin/python3). The temp root
# becomes `<root>`, this repository (the hook's own frames) `<repo>`, pids 1 and durations
# 1 ms. The <case>.expected.json files are NOT regenerated: after recording, check each
# changed value against the fixture sources by eye and update them.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" unittest
python="${PYTHON:-/usr/bin/python3}"

# record <case> <project> [VAR=value ...] -- [unittest arguments...]
record() {
  case_setup "$@"
  set -- "${args[@]+"${args[@]}"}"
  local events="$work/$name.events.jsonl"
  echo "== $name: (cd $project && python3 -m unittest $*)" >&2
  (
    cd "$root"
    env -u PYTHONPATH "${vars[@]+"${vars[@]}"}" \
      PYTHONPATH="$repo/reporters/unittest${PYTHONPATH_EXTRA:+:$root/$PYTHONPATH_EXTRA}" \
      RUN_TESTS_UNITTEST_EVENTS="$events" \
      "$python" -m unittest "$@" >"$work/$name.stdout" 2>&1
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  ROOT="$root" REPO="$repo" perl -pe 's/\Q$ENV{ROOT}\E/<root>/g; s/\Q$ENV{REPO}\E/<repo>/g; s/"pid": \d+/"pid": 1/g; s/"duration_ms": [0-9.e-]+/"duration_ms": 1/g' "$events" >"$out/$name.jsonl"
}

record mixed unittest-mixed --
record load-tests unittest-load-tests --
record import-error unittest-import-error -- discover -s tests
record setupclass unittest-setupclass --
record filtered unittest-mixed RUN_TESTS_UNITTEST_FILTER='test_even|TextTest' --
record rerun unittest-mixed -- tests.test_widget.WidgetTest.test_even tests.test_widget.WidgetTest.test_gone
PYTHONPATH_EXTRA=src record src-layout unittest-src-layout -- discover -s tests -t .
# tests/ a package, src/ a layout: import errors in a test module, in a project module it
# imports, and a syntax error, by discovery and by dotted name (where unittest's loader
# lets a SyntaxError out, and the hook makes it the same failed test as discovery does).
PYTHONPATH_EXTRA=src record import-package unittest-import-package --
PYTHONPATH_EXTRA=src record import-by-name unittest-import-package -- tests.test_store tests.test_syntax tests.test_ok.OkTest.test_fails

# A run killed mid-write: the mixed events without run_end, cut inside the last test_end.
"$python" - "$out/mixed.jsonl" >"$out/truncated.jsonl" <<'PY'
import sys
lines = [l for l in open(sys.argv[1], encoding="utf-8") if not l.startswith('{"event": "run_end"')]
last = lines.pop()
sys.stdout.write("".join(lines) + last[: len(last) // 2])
PY

echo "recorded into $out; now review the .expected.json files" >&2
