#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/rspec/<case>.json(l) from real `bundle exec rspec`
# runs on temp copies of test/fixtures/projects/rspec-*. The temp path becomes `<root>`
# and volatile fields (run_time, duration, duration_ms, seed) are zeroed or removed.
# The <case>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
projects="$repo/test/fixtures/projects"
out="$repo/test/fixtures/outputs/rspec"
formatter="$repo/reporters/rspec/run_tests_formatter.rb"
mkdir -p "$out"

# Bundler settings from the caller's environment must not leak into the fixtures.
while IFS= read -r name; do unset "$name"; done < <(env | grep -oE '^BUNDLER?_[A-Za-z0-9_]+' || true)

tmp="$(mktemp -d)"
tmp="$(cd "$tmp" && pwd -P)"
cleanup() {
  if [[ -n "${hang_pid:-}" ]]; then kill -KILL -- "-$hang_pid" 2>/dev/null || true; fi
  if [[ -s "$tmp/grandchild.pid" ]]; then kill -KILL "$(cat "$tmp/grandchild.pid")" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# copy <project> <dir>: a fresh temp copy of a fixture project.
copy() { rm -rf "$2"; cp -R "$projects/$1" "$2"; }

# scrub <root> <in> <out>: replace the temp root, zero durations, drop the seed.
# Works on both rspec's JSON document and the stream's JSON lines.
scrub() {
  ROOT="$1" ruby -rjson -e '
    root = ENV.fetch("ROOT")
    DURATIONS = %w[run_time duration duration_ms].freeze
    zero = lambda do |v|
      case v
      when Hash then v.each_with_object({}) { |(k, x), h| next if k == "seed"; h[k] = DURATIONS.include?(k) && !x.nil? ? 0 : zero.(x) }
      when Array then v.map(&zero)
      when String then v.gsub(root, "<root>")
      else v
      end
    end
    text = File.read(ARGV[0])
    lines = ARGV[0].end_with?(".jsonl") ? text.lines : [text]
    File.write(ARGV[1], lines.map { |l| JSON.generate(zero.(JSON.parse(l))) }.join("\n") + (lines.size > 1 ? "\n" : ""))
  ' "$2" "$3"
}

# run <project> <case> [rspec args...]: real run with both formatters; exit status is expected to vary.
run() {
  local project="$1" name="$2"; shift 2
  local root="$tmp/$name"
  copy "$project" "$root"
  (cd "$root" && bundle exec rspec --format json --out rspec.json --format progress \
    --require "$formatter" --format RunTests::StreamFormatter --out rspec-events.jsonl "$@" >run.log 2>&1) || true
  scrub "$root" "$root/rspec.json" "$out/$name.json"
  scrub "$root" "$root/rspec-events.jsonl" "$out/$name.stream.jsonl"
}

# half <in> <out>: the first half of a file, cut mid-record like a killed writer.
half() { head -c "$(( $(wc -c <"$1") / 2 ))" "$1" >"$2"; }

run rspec-mixed mixed
run rspec-load-error load-error
run rspec-mixed filtered -e "handles [brackets] and (parens)"
mapfile -t failed_ids < <(ruby -rjson -e 'JSON.parse(File.read(ARGV[0]))["examples"].each { |e| puts e["id"] if e["status"] == "failed" }' "$tmp/mixed/rspec.json")
run rspec-mixed rerun-by-ids "${failed_ids[@]}"
half "$out/mixed.json" "$out/truncated.json"
half "$out/mixed.stream.jsonl" "$out/truncated.stream.jsonl"
# contradicts: the passing filtered run with its summary's failure_count made 1, a report
# that contradicts itself.
grep -q '"failure_count":0,' "$out/filtered.json"
sed 's/"failure_count":0,/"failure_count":1,/' "$out/filtered.json" >"$out/contradicts.json"
# Only the stream is kept for these: the JSON is identical to mixed.json / load-error.json.
rm -f "$out/filtered.stream.jsonl" "$out/rerun-by-ids.stream.jsonl"

# hang: a real run stopped by SIGTERM while an example sleeps. rspec still writes its
# JSON and a summary; the running example is left with an empty status.
root="$tmp/hang"
copy rspec-hang "$root"
export HANG_PID_FILE="$tmp/grandchild.pid"
(cd "$root" && exec setsid bundle exec rspec --format json --out rspec.json --format progress \
  --require "$formatter" --format RunTests::StreamFormatter --out rspec-events.jsonl >run.log 2>&1) &
hang_pid=$!
deadline=$(( SECONDS + 30 ))
until [[ -s "$HANG_PID_FILE" ]]; do
  (( SECONDS < deadline )) || { echo "rspec-hang never started its grandchild" >&2; exit 1; }
  sleep 0.1
done
kill -TERM -- "-$hang_pid" 2>/dev/null || true
kill -KILL "$(cat "$HANG_PID_FILE")" 2>/dev/null || true
wait "$hang_pid" 2>/dev/null || true
hang_pid=
scrub "$root" "$root/rspec.json" "$out/hang.json"
scrub "$root" "$root/rspec-events.jsonl" "$out/hang.stream.jsonl"

echo "recorded into $out:"
ls -1 "$out" | grep -v '\.expected\.json$'
