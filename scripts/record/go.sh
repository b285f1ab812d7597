#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/go/<case>.jsonl from real runs of the fixture
# projects, as the go-json parser sees them: go's stdout and stderr in one file (go's
# JSON events and its plain text), plus <case>.context.json with the module path the
# adapter passes from go.mod. The temp root becomes `<root>`; times, elapsed seconds
# and durations are normalised.
# go tests packages in parallel, so the order of packages' lines differs between runs.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
#
# GO119 and GO123 name the go binaries (default: `go` on PATH, and
# /usr/lib/go-1.23/bin/go, Debian's golang-1.23-go from bookworm-backports); the
# Go 1.23 cases are skipped when that binary is missing.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" go
go119="${GO119:-$(command -v go)}"
go123="${GO123:-/usr/lib/go-1.23/bin/go}"

# No network, no toolchain switching, a cache of our own: every case runs with -count=1
# (afresh) but the `cached` ones, which replay what a first run put in that cache.
export GOPROXY=off GOTOOLCHAIN=local GOFLAGS= GOCACHE="$work/gocache"

# record <case> <project> <go binary> [go test arguments...]
record() {
  local name="$1" project="$2" gobin="$3"; shift 3
  run_case "$name" "$(fresh_copy "$project" "$name")" "$gobin" -count=1 "$@"
}

# record_cached <case> <project> <go binary> [go test arguments...]: go test twice in
# one copy, recording the second run, which go answers from its test cache where it can.
record_cached() {
  local name="$1" project="$2" gobin="$3"; shift 3
  local root
  root="$(fresh_copy "$project" "$name")"
  (cd "$root" && PATH="$(dirname "$gobin"):$PATH" go test -json "$@" >/dev/null 2>&1) || true
  run_case "$name" "$root" "$gobin" "$@"
}

# run_case <case> <root> <go binary> [go test arguments...]
run_case() {
  local name="$1" root="$2" gobin="$3"; shift 3
  local module
  module="$(sed -n 's/^module[[:space:]]*//p' "$root/go.mod")"
  echo "== $name: ($(basename "$root") && $("$gobin" version | cut -d' ' -f3) test -json $*)" >&2
  (
    cd "$root"
    PATH="$(dirname "$gobin"):$PATH" go test -json "$@" >"$work/$name.jsonl" 2>&1
  ) || echo "   (exit status $?, expected when tests fail)" >&2
  printf '{ "hints": { "module": "%s" } }\n' "$module" >"$out/$name.context.json"
  ROOT="$root" perl -pe '
    s/\Q$ENV{ROOT}\E/<root>/g;
    s/"Time":"[^"]*"/"Time":"2000-01-01T00:00:00Z"/g;
    s/"Elapsed":[0-9.e-]+/"Elapsed":0/g;
    s/goroutine \d+ \[/goroutine 1 [/g;
    s/0xc[0-9a-f]{9}/0xc000000000/g;
    s/\((\d+\.\d+)s\)/(0.00s)/g;
    s/\\t\d+\.\d+s\b/\\t0.000s/g;
  ' "$work/$name.jsonl" >"$out/$name.jsonl"
}

record mixed go-mixed "$go119" ./...
record build-error go-build-error "$go119" ./...
record panic go-panic "$go119" ./...
# --name 'TestTable/wrong_[neg]' as the go adapter passes it: sub has no such test.
record filtered go-mixed "$go119" -run 'TestTable$/^wrong_\[neg\]' ./...
# --failed-only after `mixed`, for the root package: a nested and a bracketed leaf.
record rerun go-mixed "$go119" -run '^TestNested$/^outer$/^inner_\(bad\)$|^TestTable$/^wrong_\[neg\]$' .
# A TestMain that exits 1 after every test passed: the package fails with no failed test.
record testmain go-testmain "$go119" ./...
# testing.RunTests inside a test: the inner tests' events, one failing, in a package that passed.
record nested go-nested "$go119" ./...
# A passing test whose output lacks a trailing newline: Go 1.19 gives it no outcome.
record no-newline go-no-newline "$go119" ./...
# A second run of go-packages: the packages that passed are replayed from go's cache.
record_cached cached go-packages "$go119" ./...
if [ -x "$go123" ]; then
  record mixed.go1.23 go-mixed "$go123" ./...
  record build-error.go1.23 go-build-error "$go123" ./...
  record testmain.go1.23 go-testmain "$go123" ./...
  record nested.go1.23 go-nested "$go123" ./...
  record no-newline.go1.23 go-no-newline "$go123" ./...
  record_cached cached.go1.23 go-packages "$go123" ./...
else
  echo "no Go 1.23 at $go123: the go1.23 cases were not recorded" >&2
fi

# A run killed mid-write: mixed up to the root package's last test event, the last
# line cut in half, so the package never reported its end.
node -e '
  const fs = require("fs");
  const lines = fs.readFileSync(process.argv[1], "utf8").split("\n");
  const end = lines.findIndex((l) => l.includes("\"Action\":\"fail\"") && l.includes("\"Test\":\"TestNested/outer/inner_(bad)\""));
  const kept = lines.slice(0, end + 1);
  const last = kept.pop();
  process.stdout.write(kept.join("\n") + "\n" + last.slice(0, Math.floor(last.length / 2)));
' "$out/mixed.jsonl" >"$out/truncated.jsonl"
cp "$out/mixed.context.json" "$out/truncated.context.json"

echo "recorded into $out; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
