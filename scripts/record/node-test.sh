#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/node-test/<case>.jsonl from real `node --test` runs
# of the fixture projects with reporters/node-test/reporter.mjs, as run-tests runs it.
# The temp root becomes `<root>`; pids, durations, node's version and its internal
# lines are normalised.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" node-test

# record <case> <project> [node --test arguments ...]
record() {
  local name="$1" project="$2"; shift 2
  local root
  root="$(fresh_copy "$project" "$name")"
  local report="$work/$name.report.jsonl"
  echo "== $name: $project $*" >&2
  (
    cd "$root"
    # What run-tests gives every run, and node-test-mixed's argv.test.js checks.
    export RUN_TESTS_RUN_ID=recording
    node --test --test-reporter=spec --test-reporter-destination=stdout \
      --test-reporter="$repo/reporters/node-test/reporter.mjs" --test-reporter-destination="$report" "$@" \
      >"$work/$name.stdout" 2>&1
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  ROOT="$root" perl -pe 's/\Q$ENV{ROOT}\E/<root>/g; s/"pid":\d+/"pid":0/g; s/"duration_ms":[0-9.]+/"duration_ms":1/g; s/"runner_version":"[^"]*"/"runner_version":"20"/g; s/node:internal\/([\w\/.]+):\d+:\d+/node:internal\/$1:1:1/g' "$report" >"$out/$name.jsonl"
}

record mixed node-test-mixed
record files node-test-files
record filtered node-test-mixed '--test-name-pattern=^(?:adds wrongly|with subtests)$' test/math.test.js

# A run killed mid-write: the mixed report without its run_end, cut inside the last test line.
node -e '
  const fs = require("fs");
  const lines = fs.readFileSync(process.argv[1], "utf8").split("\n").filter((l) => l && !l.startsWith("{\"event\":\"run_end\""));
  const last = lines.pop();
  process.stdout.write(lines.join("\n") + "\n" + last.slice(0, last.length >> 1));
' "$out/mixed.jsonl" >"$out/truncated.jsonl"

echo "recorded into $out; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
