#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/cargo/<case>.jsonl from real runs of the fixture
# projects, as the cargo parser sees them: cargo's stdout and stderr in one file (as
# captureOutput writes them: artifact JSON, libtest JSON, cargo's stderr text), plus
# <case>.context.json with the workspace hint where the adapter gives one. The temp
# root and the target dir become `<root>` and `<target>`; times, hashes, thread ids and
# backtraces are normalised.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
# (.jsonl like go's recordings: the stream test reads <case>.context.json and
# <case>.expected.json beside .jsonl files.)
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" cargo
export CARGO_TARGET_DIR="$work/target" RUSTC_BOOTSTRAP=run_tests_libtest_json CARGO_TERM_COLOR=never
unset RUST_BACKTRACE

# normalise <raw output> <root>: the temp root, target dir, times, hashes and thread ids made stable.
normalise() {
  ROOT="$2" TARGET="$CARGO_TARGET_DIR" perl -pe '
    s/\Q$ENV{TARGET}\E/<target>/g;
    s/\Q$ENV{ROOT}\E/<root>/g;
    s/"exec_time": [0-9.e-]+/"exec_time": 0.001/g;
    s/ in \d+\.\d+s$/ in 0.00s/;
    s/-[0-9a-f]{16}\b/-0000000000000000/g;
    s/\x27 \(\d+\) panicked/\x27 (1) panicked/g;
    s/"fresh":(true|false)/"fresh":false/g;
  ' "$1"
}

# record_text <case> <project> <stdout|all> [cargo test arguments...]: plain `cargo test`,
# libtest's text, as a user saves it: stdout alone (`> out.txt`: no `Running` headers,
# which cargo prints on stderr) or stdout and stderr together (`> out.txt 2>&1`).
record_text() {
  local name="$1" project="$2" streams="$3"; shift 3
  local root
  root="$(fresh_copy "$project" "$name")"
  echo "== $name: (cd $project && cargo test $* > $name.txt${streams/all/ 2>&1})" >&2
  (
    cd "$root"
    if [ "$streams" = all ]; then cargo test --offline --no-fail-fast "$@" >"$work/$name.out" 2>&1
    else cargo test --offline --no-fail-fast "$@" >"$work/$name.out" 2>/dev/null; fi
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  normalise "$work/$name.out" "$root" >"$out/$name.txt"
}

# record <case> <project> <dir inside it> [cargo test arguments...] -- [libtest arguments...]
record() {
  local name="$1" project="$2" sub="$3"; shift 3
  local root
  root="$(fresh_copy "$project" "$name")"
  echo "== $name: (cd $project/$sub && cargo test $*)" >&2
  (
    cd "$root/$sub"
    cargo test --offline --no-fail-fast --message-format json-render-diagnostics "$@" \
      -Z unstable-options --format json --report-time >"$work/$name.out" 2>&1
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  if [ "$sub" != . ]; then
    printf '{ "root": "<root>/%s", "hints": { "workspace": "<root>" } }\n' "$sub" >"$out/$name.context.json"
  fi
  normalise "$work/$name.out" "$root" >"$out/$name.jsonl"
}

# The libtest arguments follow `--` in each call, exactly as the adapter passes them.
record mixed cargo-mixed . --
record compile-error cargo-compile-error . --
record workspace cargo-workspace . --
record member cargo-workspace beta --
record rerun cargo-mixed . -p cargo_mixed --test api -- --exact api_doubles_wrongly
record filtered cargo-mixed . -- adds
record should-panic cargo-should-panic . --
record returns-err cargo-returns-err . --
(
  unset RUSTC_BOOTSTRAP
  record_text text-stdout cargo-mixed stdout
  record_text text-all cargo-mixed all
  record_text text-returns-err cargo-returns-err stdout
  record_text text-terse cargo-mixed stdout -q
)

# A run killed mid-write: mixed up to the first failure of the integration tests, the
# last line cut in half, so its suite never ended.
node -e '
  const fs = require("fs");
  const lines = fs.readFileSync(process.argv[1], "utf8").split("\n");
  const end = lines.findIndex((l) => l.includes("\"name\": \"api_doubles_wrongly\"") && l.includes("\"failed\""));
  const kept = lines.slice(0, end + 1);
  const last = kept.pop();
  process.stdout.write(kept.join("\n") + "\n" + last.slice(0, Math.floor(last.length / 2)));
' "$out/mixed.jsonl" >"$out/truncated.jsonl"

echo "recorded into $out; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
