#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/minitest/<case>.jsonl from real runs of the
# fixture projects, with the environment run-tests sets. The temp root becomes
# `<root>`.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" minitest

# Bundler settings of the calling shell must not leak into the recorded runs.
for var in $(env | grep -oE '^(BUNDLE|BUNDLER)_[A-Za-z0-9_]*' || true); do unset "$var"; done

# record <case> <project> [VAR=value ...] -- <command...>
record() {
  case_setup "$@"
  set -- "${args[@]+"${args[@]}"}"
  local report="$work/$name.report.jsonl"
  echo "== $name: (cd $project && $*)" >&2
  (
    cd "$root"
    env "${vars[@]+"${vars[@]}"}" \
      RUBYLIB="$repo/reporters/minitest" \
      RUBYOPT="-rrun_tests/minitest_boot" \
      RUN_TESTS_MINITEST_REPORT="$report" \
      "$@" >"$work/$name.stdout" 2>&1
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  # pids become 1, 2, … in order of appearance (several processes stay apart), durations 1 ms.
  ROOT="$root" perl -pe 's/\Q$ENV{ROOT}\E/<root>/g; s/"pid":(\d+)/"\"pid\":" . ($p{$1} \/\/= ++$n)/ge; s/"duration_ms":[0-9.e+-]+/"duration_ms":1/g' "$report" >"$out/$name.jsonl"
}

# SEED: the same order at every recording, so a re-recording differs only where the output does.
record mixed minitest-mixed SEED=1 -- bundle exec rake test
record load-error minitest-load-error -- bundle exec rake test
record filtered minitest-mixed \
  'RUN_TESTS_MINITEST_FILTER=\A(?:WidgetTest\#test_with\ \[brackets\]\ \(and\ parens\)|TextTest\#test_upcase)\z' \
  -- bundle exec rake test
record rails-parallel rails-app -- bin/rails test
# Two tests named unhash#test_0001_unhashes (same-named describe blocks); seed 1 runs the
# failing one first, where a parser keyed by name alone kept only the passing one.
record same-name minitest-spec SEED=1 -- bundle exec rake spec

# The Rails fixture leaves one file per process that ran a test: both workers must have.
workers="$(ls "$work/rails-parallel/tmp/test-pids" | wc -l | tr -d ' ')"
if [ "$workers" -lt 2 ]; then
  echo "rails-parallel: tests ran in $workers process(es), expected 2 workers; record again" >&2
  exit 1
fi

# A run killed mid-write: the mixed report without its run_end, cut inside the last test_end.
ruby -e '
  lines = File.readlines(ARGV[0]).reject { |l| l.start_with?(%q({"event":"run_end")) }
  last = lines.pop
  print lines.join, last[0, last.length / 2]
' "$out/mixed.jsonl" >"$out/truncated.jsonl"

echo "recorded into $out; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
