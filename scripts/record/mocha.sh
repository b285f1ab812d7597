#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/mocha/<case>.jsonl from real runs of the fixture
# projects through reporters/mocha/launcher.cjs, with the arguments run-tests gives it.
# The temp root becomes `<root>`, this checkout `<repo>`; pids and durations are normalised.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" mocha

# record <case> <project> [launcher arguments after --report ...]
record() {
  local name="$1" project="$2"; shift 2
  local root
  root="$(fresh_copy "$project" "$name")"
  ln -s "$repo/node_modules" "$root/node_modules"
  local report="$work/$name.report.jsonl"
  local script_args
  script_args="$(node -e 'const t=require(process.argv[1]).scripts.test.split(" ").slice(1); console.log(t.join("\n"))' "$root/package.json")"
  echo "== $name: $project $*" >&2
  (
    cd "$root"
    # What run-tests gives every run, and mocha-mixed's setup.spec.js checks.
    export RUN_TESTS_RUN_ID=recording
    # shellcheck disable=SC2086
    node "$repo/reporters/mocha/launcher.cjs" $script_args --run-tests \
      --mocha "$repo/node_modules/mocha" --bin "$root/node_modules/.bin/mocha" --report "$report" "$@" \
      >"$work/$name.stdout" 2>&1
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  ROOT="$root" REPO="$repo" perl -pe 's/\Q$ENV{ROOT}\E/<root>/g; s/\Q$ENV{REPO}\E/<repo>/g; s/"pid":\d+/"pid":0/g; s/"duration_ms":[0-9.]+/"duration_ms":1/g' "$report" >"$out/$name.jsonl"
}

record mixed mocha-mixed
record load-error mocha-load-error
record exit mocha-exit
record parallel mocha-parallel
record done-twice mocha-done-twice
record filtered mocha-mixed --grep '^(?:math adds wrongly|math works with \[brackets\] \(and parens\))$' spec/math.spec.js

# A run killed mid-write: the mixed report without its run_end, cut inside the last test line.
node -e '
  const fs = require("fs");
  const lines = fs.readFileSync(process.argv[1], "utf8").split("\n").filter((l) => l && !l.startsWith("{\"event\":\"run_end\""));
  const last = lines.pop();
  process.stdout.write(lines.join("\n") + "\n" + last.slice(0, last.length >> 1));
' "$out/mixed.jsonl" >"$out/truncated.jsonl"

echo "recorded into $out; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
