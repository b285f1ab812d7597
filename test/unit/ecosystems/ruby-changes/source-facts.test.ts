/** reporters/ruby/source_facts.rb, run by Ruby on files that use each form it reads. */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { projectFiles, readSourceFacts } from '../../../../src/ecosystems/ruby-changes/sources.js';
import { readProjectFacts } from '../../../../src/project/facts.js';
import { gitRepo } from '../../../support/git-repo.js';
import { hasTools, REPO } from '../../../e2e/helpers.js';

const REPORTERS = path.join(REPO, 'reporters');

const SPEC = `# require "commented_out"
require "shop/cart"
require_relative("support/a")
require File.expand_path("../x", __FILE__)
require File.expand_path("../config/environment", __dir__)
require "#{__dir__}/y"
require File.join(File.dirname(__FILE__), "z")
require Rails.root.join("lib", "r").to_s
Kernel.require "k"
autoload :Bar, "bar"
autoload :Baz
Dir[File.join(__dir__, "support", "**", "*.rb")].sort.each { |f| require f }
Dir.glob("spec/helpers/*.rb").each(&method(:require))
Dir[Rails.root.join("spec/shared/**/*.rb")].each do |file| load file end
Dir.glob(Pathname.new(__dir__).join("support", "*.rb")).each { |f| require_relative f }
Dir[ENV["X"]].each { |f| require f }
Dir["x/*.rb"].each { |f| require f.sub("x", "") }
require name
YAML.load(text)
class Admin < ::Models::User
  has_many :comments, class_name: "Blog::Comment"
  TEXT = "Not A Word"
end
"Fine".constantize
"#{kind}Job".constantize
Object.const_get(:Fine)
Object.const_get(name)
@post = %w[draft]
require "shop/plugins/#{kind}"
require_relative "helpers/#{kind}_helper.rb"
require "#{kind}/x"
`;

const suite = hasTools('ruby') ? describe : describe.skip;

suite('source_facts.rb', () => {
  const root = gitRepo({
    'spec/a_spec.rb': SPEC,
    'lib/own_load.rb': 'def load(file) = file\nload(name)\n',
    'lib/broken.rb': 'def x(\n',
    'tmp/skipped.rb': '',
    'vendor/bundle/gem.rb': '',
    'app/views/posts/show.html.erb': '<h1><%= @post.title %></h1>\n<%= form_with model: Post.new do |f| %>\n<%# Secret %>\n<% end %>\n<%= render "shared/card", user: current_user %>\n',
    'app/views/posts/index.json.jbuilder': 'json.array! @posts, :id, Badge.label\n',
    'app/views/layouts/mail.html.haml': '%p= Footer.text\n',
    'app/assets/x.erb': '',
  });

  it('lists the project\'s .rb files, outside run output and installed gems, and its views', () => {
    expect(projectFiles(readProjectFacts(root))).toEqual({
      ruby: ['lib/broken.rb', 'lib/own_load.rb', 'spec/a_spec.rb'],
      templates: ['app/views/posts/index.json.jbuilder', 'app/views/posts/show.html.erb'],
      opaque: 'app/views/layouts/mail.html.haml',
    });
  });

  it('reads the names an ERB view\'s code uses, and a Ruby template as Ruby', async () => {
    const facts = await readSourceFacts(root, ['app/views/posts/show.html.erb', 'app/views/posts/index.json.jbuilder'], {}, REPORTERS);
    const view = facts.get('app/views/posts/show.html.erb');
    expect([view?.consts, view?.words, view?.error]).toEqual([['Post'], ['post', 'title', 'form_with', 'model', 'new', 'f', 'render', 'user', 'current_user'], null]);
    expect(facts.get('app/views/posts/index.json.jbuilder')?.consts).toEqual(['Badge']);
  });

  it('tells each load by its path as written or built from __dir__, __FILE__ and Rails.root, and each glob a block requires', async () => {
    const facts = await readSourceFacts(root, ['spec/a_spec.rb', 'lib/own_load.rb', 'lib/broken.rb', 'lib/missing.rb'], {}, REPORTERS);
    const spec = facts.get('spec/a_spec.rb');
    expect(spec?.loads.map((l) => [l.kind, l.abs ? path.relative(root, l.path) : l.path, l.line])).toEqual([
      ['require', 'shop/cart', 2],
      ['require_relative', 'support/a', 3],
      ['require', 'spec/x', 4],
      ['require', 'config/environment', 5],
      ['require', 'spec/y', 6],
      ['require', 'spec/z', 7],
      ['require', 'lib/r', 8],
      ['require', 'k', 9],
      ['autoload', 'bar', 10],
      ['autoload_const', 'Baz', 11],
      ['require', 'shop/plugins/', 29],
      ['require_relative', 'helpers/', 30],
    ]);
    expect(spec?.loads.slice(-2).map((l) => l.parts)).toEqual([['shop/plugins/', null], ['helpers/', null, '_helper.rb']]);
    expect(spec?.globs.map((g) => [g.abs ? path.relative(root, g.pattern) : g.pattern, g.abs, g.line])).toEqual([
      ['spec/support/**/*.rb', true, 12],
      ['spec/helpers/*.rb', false, 13],
      ['spec/shared/**/*.rb', true, 14],
      ['spec/support/*.rb', true, 15],
    ]);
    expect(spec?.dynamic).toEqual([
      { line: 16, what: 'Dir[ENV["X"]].each { |f| require f }' },
      { line: 17, what: 'Dir["x/*.rb"].each { |f| require f.sub("x", "") }' },
      { line: 18, what: 'require name' },
      { line: 31, what: 'require "#{kind}/x"' },
    ]);
    expect(spec?.computed).toEqual([{ line: 25, what: '"#{kind}Job".constantize' }, { line: 27, what: 'Object.const_get(name)' }]);
    expect(spec?.superclasses).toEqual(['User']);
    expect(spec?.consts).toEqual(expect.arrayContaining(['Admin', 'Models', 'User', 'Blog', 'Comment', 'Fine', 'Bar', 'Baz']));
    expect(spec?.words).toEqual(expect.arrayContaining(['has_many', 'comments', 'class_name', 'post', 'draft']));
    // Comments are not read, and a string of several words names nothing.
    expect([...(spec?.consts ?? []), ...(spec?.words ?? [])].filter((w) => ['commented_out', 'Not', 'Word'].includes(w))).toEqual([]);
    expect(spec?.error).toBeNull();
    // A file's own `load` method is no load.
    expect([facts.get('lib/own_load.rb')?.dynamic, facts.get('lib/own_load.rb')?.loads]).toEqual([[], []]);
    expect(facts.get('lib/broken.rb')?.error).toMatch(/^line \d+: syntax error/);
    expect(facts.get('lib/missing.rb')?.error).toMatch(/No such file or directory/);
  });

  it('fails with the harness error Ruby gave, when it cannot answer', async () => {
    await expect(readSourceFacts(root, ['spec/a_spec.rb'], {}, path.join(root, 'nowhere'))).rejects.toThrow(/reading the Ruby sources failed \(exit 1\)/);
  });
});
