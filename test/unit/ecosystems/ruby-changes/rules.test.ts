import { describe, expect, it } from '@jest/globals';
import { pathGemDirs, wholeSuiteFile } from '../../../../src/ecosystems/ruby-changes/affected.js';
import { nameKey, projectInflections, testedName, wordKeys } from '../../../../src/ecosystems/ruby-changes/names.js';
import { eagerLoaded, eagerLoading } from '../../../../src/ecosystems/ruby-changes/rails.js';
import { inSkippedDir } from '../../../../src/ecosystems/ruby-changes/sources.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { rakePreloads } from '../../../../src/runners/minitest/changes.js';
import { requiredNames } from '../../../../src/runners/rspec/changes.js';

describe('names', () => {
  it('matches a word to file names lowercased without underscores, in every singular it may be the plural of', () => {
    expect(nameKey('HTMLParser')).toBe(nameKey('html_parser'));
    expect(wordKeys('UserProfile')).toEqual(['userprofile']);
    for (const [plural, singular] of [['comments', 'comment'], ['categories', 'category'], ['movies', 'movie'], ['statuses', 'status'],
      ['boxes', 'box'], ['people', 'person'], ['admin_people', 'admin_person'], ['analyses', 'analysis'], ['wolves', 'wolf']]) {
      expect([plural, wordKeys(plural ?? '')]).toEqual([plural, expect.arrayContaining([nameKey(singular ?? '')])]);
    }
    expect(wordKeys('octopi', new Map([['octopi', 'octopus']]))).toContain('octopus');
  });

  it('reads the project\'s irregular plurals and Zeitwerk inflections from config', () => {
    const facts = factsFromFiles('/p', {
      'config/initializers/inflections.rb': 'ActiveSupport::Inflector.inflections(:en) do |inflect|\n  inflect.irregular "octopus", "octopi"\nend\n',
      'config/initializers/zeitwerk.rb': 'Rails.autoloaders.main.inflector.inflect("v2_api" => "APIv2", "html" => "HTML")\n',
    });
    const { irregular, aliases } = projectInflections(facts, ['config/initializers/inflections.rb', 'config/initializers/zeitwerk.rb']);
    expect([...irregular]).toEqual([['octopi', 'octopus']]);
    expect([...aliases]).toEqual([['v2api', ['apiv2']]]);
  });

  it('names what a test file tests by its path below spec/ or test/', () => {
    expect(['spec/models/user_spec.rb', 'test/user_test.rb', 'test/unit/test_user.rb', 'engines/x/spec/lib/a_spec.rb', 'spec/spec_helper.rb']
      .map(testedName)).toEqual(['models/user', 'user', 'unit/user', 'lib/a', null]);
  });
});

describe('files that are the whole suite', () => {
  const facts = factsFromFiles('/p', { 'config/application.rb': 'config.autoload_lib(ignore: %w[tasks])\n' });
  const whole = (file: string, eager: string | null = null) => wholeSuiteFile(file, facts, ['engines/billing', '../shared'], eager);

  it('says why for each kind the graph cannot place', () => {
    expect([
      'Gemfile.lock', 'Gemfile', 'Rakefile', '.rspec', 'README.md', 'lib/tasks/db.rake', 'config/initializers/x.rb', 'db/schema.rb',
      'spec/spec_helper.rb', 'spec/rails_helper.rb', 'test/test_helper.rb', 'spec/factories/users.rb', 'lib/minitest/color_plugin.rb',
      'engines/billing/lib/billing.rb', '../shared/lib/x.rb', 'spec/fixtures/sample.rb', 'lib/generators/x/templates/model.rb',
    ].map((file) => whole(file))).toEqual([
      'Gemfile.lock changed: every test may load it',
      'Gemfile changed: every test may load it',
      'Rakefile changed: it defines the tasks that run the tests',
      '.rspec changed: rspec reads its options for every spec',
      'README.md is no Ruby source the graph knows: a test may read it at run time',
      'lib/tasks/db.rake is no Ruby source the graph knows: a test may read it at run time',
      'config/initializers/x.rb changed: configuration every test may load',
      'db/schema.rb changed: the test database is built from db/',
      'spec/spec_helper.rb changed: every test may load it',
      'spec/rails_helper.rb changed: every test may load it',
      'test/test_helper.rb changed: every test may load it',
      'spec/factories/users.rb is a factory definition: the factory library loads every one for every test',
      'lib/minitest/color_plugin.rb is a minitest plugin: minitest loads every one it finds for every test',
      'engines/billing/lib/billing.rb is in a gem the Gemfile takes from engines/billing: every test may load it',
      '../shared/lib/x.rb is in a gem the Gemfile takes from ../shared: every test may load it',
      'spec/fixtures/sample.rb is below fixtures/: a test may read it at run time',
      'lib/generators/x/templates/model.rb is below templates/: a test may read it at run time',
    ]);
  });

  it('leaves Ruby sources, and files outside the project, to the graph', () => {
    expect(['lib/x.rb', 'app/models/user.rb', 'spec/support/x.rb', '../other/README.md'].map((file) => whole(file))).toEqual([null, null, null, null]);
  });

  it('is the whole suite for what eager loading loads: app/, and lib/ under autoload_lib', () => {
    expect(whole('app/models/user.rb', 'config/environments/test.rb eager-loads the application (config.eager_load = true)'))
      .toBe('config/environments/test.rb eager-loads the application (config.eager_load = true): every test loads app/models/user.rb');
    expect([eagerLoaded('lib/x.rb', facts), eagerLoaded('spec/x.rb', facts), eagerLoaded('lib/x.rb', factsFromFiles('/p', {}))]).toEqual([true, false, false]);
  });

  it('reads the gems Gemfile.lock takes from a path, but not the project\'s own gemspec', () => {
    const lock = 'PATH\n  remote: .\n  specs:\n    app (1.0)\n\nPATH\n  remote: engines/billing/\n  specs:\n    billing (0.1)\n\nGEM\n  remote: https://gems.example/\n';
    expect(pathGemDirs(factsFromFiles('/p', { 'Gemfile.lock': lock }))).toEqual(['engines/billing']);
  });
});

describe('eager loading', () => {
  const app = (test: string) => factsFromFiles('/p', { 'config/application.rb': 'config.eager_load = false\n', 'config/environments/test.rb': test });

  it('is read from the test environment last, evaluating Rails 7\'s ENV["CI"].present? in the environment given', () => {
    expect(eagerLoading(app('  config.eager_load = false\n'), {})).toBeNull();
    expect(eagerLoading(app('  # config.eager_load = true\n'), {})).toBeNull();
    expect(eagerLoading(app('  config.eager_load = true\n'), {})).toBe('config/environments/test.rb eager-loads the application (config.eager_load = true)');
    expect(eagerLoading(app('  config.eager_load = ENV["CI"].present?\n'), { CI: '' })).toBeNull();
    expect(eagerLoading(app('  config.eager_load = ENV["CI"].present?\n'), { CI: 'true' }))
      .toBe('config/environments/test.rb eager-loads the application (config.eager_load = ENV["CI"].present?, and CI is set)');
    expect(eagerLoading(app('  config.eager_load = defined?(Bootsnap)\n'), {}))
      .toBe('config/environments/test.rb eager-loads the application (config.eager_load = defined?(Bootsnap), which run-tests cannot evaluate)');
  });
});

describe('what every test loads first', () => {
  it('rspec: the names given to --require and -r', () => {
    expect(requiredNames(['--require', 'spec_helper', '-r', 'a', '-rb', '--require=c', '--format', 'progress', '-I', 'lib'])).toEqual(['spec_helper', 'a', 'b', 'c']);
  });

  it('minitest: -r in a rake task\'s ruby_opts, and the requires of its test_prelude', () => {
    const facts = factsFromFiles('/p', { Rakefile: 'Rake::TestTask.new do |t|\n  t.ruby_opts << "-rtest_setup"\n  t.test_prelude = %(require "helper")\n  t.libs << "-rnot_this"\nend\n' });
    expect(rakePreloads(facts)).toEqual(['test_setup', 'helper']);
  });
});

describe('directories the graph does not read', () => {
  it('are installed gems, run output and dot directories', () => {
    expect(['vendor/bundle/ruby/x.rb', 'tmp/a.rb', '.git/x.rb', 'node_modules/a/b.rb', 'vendor/lib/x.rb', 'lib/tmpfile.rb'].map(inSkippedDir))
      .toEqual([true, true, true, true, false, false]);
  });
});
