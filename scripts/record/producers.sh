#!/usr/bin/env bash
# Regenerates test/fixtures/outputs/{junit,tap,jest-json}/<producer>-<case>.* from real
# runs of the small projects in test/fixtures/producers/, each on a temp copy. The temp
# root becomes `<root>`; times, timestamps and host names are normalised so that a
# re-recording only changes what the producers changed.
# The *-contradicts* files are a passing recording with one of its own totals changed,
# made at the end by an exact, checked edit: reports that contradict themselves.
# The <name>.expected.json files are not written here: run `UPDATE_GOLDEN=1 npm run
# test:unit` to rewrite them from the recordings, then review `git diff test/fixtures/outputs`.
#
# Producers: pytest-3 (Debian python3-pytest), gotestsum and go (Debian), vitest, jest,
# jest-junit, mocha (its xunit reporter), mocha-junit-reporter (run-tests' dev dependencies), node's own
# junit and tap reporters, minitest-reporters and rspec_junit_formatter (Debian
# ruby-minitest-reporters, ruby-rspec-junit-formatter).
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
producers="$repo/test/fixtures/producers"
outputs="$repo/test/fixtures/outputs"
bin="$repo/node_modules/.bin"
export REPO="$repo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$outputs/junit" "$outputs/tap" "$outputs/jest-json"

# copy <project> <case>: a fresh temp copy, printed as its real path.
copy() {
  local root="$work/$2"
  cp -R "$producers/$1" "$root"
  ln -s "$repo/node_modules" "$root/node_modules"
  (cd "$root" && pwd -P)
}

# keep <root> <raw file> <output>: the raw file with the root and times normalised.
keep() {
  [ -s "$2" ] || { echo "   no report at $2" >&2; exit 1; }
  # In XML, `<root>` is written `&lt;root&gt;` (CDATA excepted) so the file stays well-formed.
  ROOT="$1" XML="$([[ "$3" == *.xml ]] && echo 1 || true)" perl -0777 -pe '
    if ($ENV{XML}) {
      s{(<!\[CDATA\[.*?\]\]>)|\Q$ENV{ROOT}\E|\Q$ENV{REPO}\E}{defined $1 ? ($1 =~ s/\Q$ENV{ROOT}\E/<root>/gr =~ s/\Q$ENV{REPO}\E/<repo>/gr) : $& eq $ENV{ROOT} ? "&lt;root&gt;" : "&lt;repo&gt;"}gse;
    } else {
      s/\Q$ENV{ROOT}\E/<root>/g;
    }
    s/\Q$ENV{REPO}\E/<repo>/g;
    s/ at 0x[0-9a-f]+/ at 0x0/g;
    s/"seed" value="\d+"/"seed" value="0"/g;
    s/\b(time|duration)="[0-9.e-]+"/$1="0"/g;
    s/\btimestamp="[^"]*"/timestamp="2000-01-01T00:00:00"/g;
    s/\bhostname="[^"]*"/hostname="localhost"/g;
    s/^(\s*)duration_ms: [0-9.]+$/$1duration_ms: 0/gm;
    s/^# duration_ms [0-9.]+$/# duration_ms 0/gm;
    s/<!-- duration_ms [0-9.]+ -->/<!-- duration_ms 0 -->/g;
    s/"(startTime|endTime|start|end|runtime|duration|startAt)":[0-9.]+/"$1":0/g;
    s/\(\d+(\.\d+)? ?m?s\)/(0 ms)/g;
    s/Finished in [0-9.]+ seconds?/Finished in 0 seconds/g;
    s/\\t\d+\.\d+s\b/\\t0.000s/g;
  ' "$2" >"$3"
  echo "   -> ${3#"$repo"/}" >&2
}

# run <description> <command...>: runs in the current directory; failing tests are expected.
run() {
  echo "== $1" >&2; shift
  "$@" >/dev/null 2>&1 || echo "   (exit status $?, expected when tests fail)" >&2
}

# pytest: xunit1 and xunit2 (Debian pytest 7.2 defaults to xunit2).
root="$(copy pytest pytest)"
for family in xunit1 xunit2; do
  (cd "$root" && run "pytest $family" /usr/bin/pytest-3 -p no:cacheprovider -o junit_family=$family --junitxml="$work/pytest-$family.xml" test_mixed.py)
  keep "$root" "$work/pytest-$family.xml" "$outputs/junit/pytest-$family-mixed.xml"
done
(cd "$root" && run "pytest collection error" /usr/bin/pytest-3 -p no:cacheprovider --junitxml="$work/pytest-collect.xml" test_collect_error.py test_mixed.py)
keep "$root" "$work/pytest-collect.xml" "$outputs/junit/pytest-collect-error.xml"

# gotestsum: subtests, and a package that does not build.
root="$(copy gotestsum gotestsum)"
export GOPROXY=off GOTOOLCHAIN=local GOFLAGS= GOCACHE="$work/gocache"
(cd "$root" && run "gotestsum" gotestsum --format dots --junitfile "$work/gotestsum.xml" -- -count=1 ./calc)
keep "$root" "$work/gotestsum.xml" "$outputs/junit/gotestsum-mixed.xml"
(cd "$root" && run "gotestsum build error" gotestsum --format dots --junitfile "$work/gotestsum-build.xml" -- -count=1 ./...)
keep "$root" "$work/gotestsum-build.xml" "$outputs/junit/gotestsum-build-error.xml"

# vitest's junit reporter.
root="$(copy vitest vitest)"
(cd "$root" && run "vitest junit" "$bin/vitest" run --reporter=junit --outputFile="$work/vitest.xml")
keep "$root" "$work/vitest.xml" "$outputs/junit/vitest-mixed.xml"

# node:test's junit and tap reporters.
root="$(copy node-test node-test)"
(cd "$root" && run "node --test junit" node --test --test-reporter=junit --test-reporter-destination="$work/node.xml" mixed.test.js)
keep "$root" "$work/node.xml" "$outputs/junit/node-test-mixed.xml"
(cd "$root" && run "node --test tap" node --test --test-reporter=tap --test-reporter-destination="$work/node.tap" mixed.test.js)
keep "$root" "$work/node.tap" "$outputs/tap/node-test-mixed.tap"
(cd "$root" && run "node --test tap, only the passing test" node --test --test-reporter=tap --test-reporter-destination="$work/node-passing.tap" --test-name-pattern='^adds$' mixed.test.js)
keep "$root" "$work/node-passing.tap" "$outputs/tap/node-test-passing.tap"

# jest: jest-junit, and jest's own --json (a file that fails to load in its own case).
root="$(copy jest jest)"
(cd "$root" && JEST_JUNIT_OUTPUT_DIR="$work" JEST_JUNIT_OUTPUT_NAME=jest-junit.xml run "jest-junit" "$bin/jest" --ci mixed.test.js --reporters=default --reporters=jest-junit)
keep "$root" "$work/jest-junit.xml" "$outputs/junit/jest-junit-mixed.xml"
(cd "$root" && run "jest --json" "$bin/jest" --ci --json --testLocationInResults --outputFile="$work/jest.json" mixed.test.js)
keep "$root" "$work/jest.json" "$outputs/jest-json/jest-mixed.json"
(cd "$root" && run "jest --json, load error" "$bin/jest" --ci --json --outputFile="$work/jest-load.json" load-error.test.js mixed.test.js)
keep "$root" "$work/jest-load.json" "$outputs/jest-json/jest-load-error.json"
(cd "$root" && run "jest --json, only the passing test" "$bin/jest" --ci --json --testLocationInResults --outputFile="$work/jest-passing.json" mixed.test.js -t '^math adds$')
keep "$root" "$work/jest-passing.json" "$outputs/jest-json/jest-passing.json"

# mocha with mocha-junit-reporter.
root="$(copy mocha mocha)"
(cd "$root" && run "mocha-junit-reporter" "$bin/mocha" --reporter mocha-junit-reporter --reporter-options "mochaFile=$work/mocha.xml" mixed.spec.js)
keep "$root" "$work/mocha.xml" "$outputs/junit/mocha-junit-reporter-mixed.xml"
# mocha's own xunit reporter: it counts its <failure> elements as errors="N".
(cd "$root" && run "mocha xunit" "$bin/mocha" --reporter xunit --reporter-options "output=$work/mocha-xunit.xml" mixed.spec.js)
keep "$root" "$work/mocha-xunit.xml" "$outputs/junit/mocha-xunit-mixed.xml"
(cd "$root" && run "mocha xunit, only the passing test" "$bin/mocha" --reporter xunit --reporter-options "output=$work/mocha-xunit-passing.xml" --grep '^math adds$' mixed.spec.js)
keep "$root" "$work/mocha-xunit-passing.xml" "$outputs/junit/mocha-xunit-passing.xml"

# minitest-reporters' JUnitReporter (one file per test class).
root="$(copy minitest minitest)"
(cd "$root" && JUNIT_DIR="$work/minitest" run "minitest JUnitReporter" ruby -Itest test/mixed_test.rb --seed 1)
keep "$root" "$(ls "$work"/minitest/TEST-*.xml)" "$outputs/junit/minitest-reporters-mixed.xml"

# rspec_junit_formatter.
root="$(copy rspec rspec)"
(cd "$root" && run "rspec_junit_formatter" rspec --order defined --require rspec_junit_formatter --format RspecJunitFormatter --out "$work/rspec.xml")
keep "$root" "$work/rspec.xml" "$outputs/junit/rspec-junit-formatter-mixed.xml"

# Cut-off reports: a run killed while its report was written.
node - "$outputs" <<'JS'
const fs = require('fs');
const [out] = process.argv.slice(2);
const cut = (from, to, marker) => {
  const text = fs.readFileSync(`${out}/${from}`, 'utf8');
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${from}: no ${marker}`);
  fs.writeFileSync(`${out}/${to}`, text.slice(0, at + marker.length));
  console.error(`   -> ${to} (cut after ${JSON.stringify(marker)})`);
};
// Inside the first <failure>'s text: the testcases before it are read, the rest is lost.
cut('junit/jest-junit-mixed.xml', 'junit/jest-junit-truncated.xml', 'Received: 0');
// After the failing subtest's YAML block, before the plan and the rest.
cut('tap/node-test-mixed.tap', 'tap/node-test-truncated.tap', "failureType: 'testCodeFailure'");

// Reports that contradict themselves: a passing report with one of its own totals changed.
const edit = (from, to, before, after) => {
  const text = fs.readFileSync(`${out}/${from}`, 'utf8');
  if (text.split(before).length !== 2) throw new Error(`${from}: ${before} is not there exactly once`);
  fs.writeFileSync(`${out}/${to}`, text.replace(before, after));
  console.error(`   -> ${to} (${JSON.stringify(before)} -> ${JSON.stringify(after)})`);
};
const both = (from, to, ...pairs) => {
  edit(from, to, pairs[0], pairs[1]);
  if (pairs.length > 2) both(to, to, ...pairs.slice(2));
};
both('jest-json/jest-passing.json', 'jest-json/jest-contradicts.json', '"numFailedTests":0', '"numFailedTests":1', '"success":true', '"success":false');
edit('junit/mocha-xunit-passing.xml', 'junit/mocha-xunit-contradicts.xml', 'tests="1"', 'tests="2"');
edit('tap/node-test-passing.tap', 'tap/node-test-contradicts-fail.tap', '# fail 0', '# fail 1');
edit('tap/node-test-passing.tap', 'tap/node-test-contradicts-plan.tap', '\n1..4\n', '\n1..5\n');
JS
echo "recorded; now run UPDATE_GOLDEN=1 npm run test:unit and review git diff test/fixtures/outputs" >&2
