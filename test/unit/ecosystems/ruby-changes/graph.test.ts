import { describe, expect, it } from '@jest/globals';
import { GraphBuilder, type GraphInput } from '../../../../src/ecosystems/ruby-changes/graph.js';
import { addRailsEdges } from '../../../../src/ecosystems/ruby-changes/rails.js';
import { reverseOf, unitsReaching, unknownReached } from '../../../../src/ecosystems/ruby-changes/reach.js';
import type { LoadFact, SourceFacts } from '../../../../src/ecosystems/ruby-changes/sources.js';

const ROOT = '/p';

/** What source_facts.rb would say of a file: nothing, unless given. */
const facts = (given: Partial<SourceFacts> = {}): SourceFacts => ({
  loads: [], globs: [], dynamic: [], computed: [], consts: [], words: [], superclasses: [], error: null, ...given,
});
const req = (path: string, kind = 'require', abs = false): LoadFact => ({ kind, path, abs, line: 1 });

interface Project {
  readonly sources: Record<string, Partial<SourceFacts>>;
  readonly units: readonly string[];
  readonly changed?: readonly string[];
  readonly preloads?: readonly string[];
  readonly autoload?: boolean;
  readonly rails?: boolean;
  readonly opaque?: string;
}

function graphOf(project: Project) {
  const input: GraphInput = {
    root: ROOT, files: Object.keys(project.sources).filter((file) => file.endsWith('.rb')).sort(),
    templates: Object.keys(project.sources).filter((file) => !file.endsWith('.rb')), opaqueTemplate: project.opaque ?? null,
    sources: new Map(Object.entries(project.sources).map(([file, given]) => [file, facts(given)])),
    units: new Set(project.units), changed: new Set(project.changed ?? []), preloads: project.preloads ?? [],
    autoload: project.autoload ?? false, inflections: { irregular: new Map(), aliases: new Map() },
  };
  const builder = new GraphBuilder(input);
  if (project.rails === true) addRailsEdges(builder);
  return builder.build();
}

/** Each unit that reaches `changed`, with its reason, sorted. */
function reaching(project: Project, changed: string): string[] {
  const graph = graphOf(project);
  return [...unitsReaching(graph, reverseOf(graph), changed, new Set(project.units))].map(([u, why]) => `${u}: ${why}`).sort();
}

describe('the require graph', () => {
  const project: Project = {
    units: ['spec/cart_spec.rb', 'spec/price_spec.rb', 'spec/other_spec.rb', 'spec/tools/x_spec.rb'],
    sources: {
      'spec/cart_spec.rb': { loads: [req('shop/cart')] },
      'spec/price_spec.rb': { loads: [req('./lib/shop/price.rb')] },
      'spec/other_spec.rb': { loads: [req('json'), req(`${ROOT}/lib/tools`, 'require', true)] },
      'spec/tools/x_spec.rb': {},
      'lib/shop/cart.rb': { loads: [req('price', 'require_relative')] },
      'lib/shop/price.rb': {},
      'lib/tools.rb': { loads: [req('x', 'load')] },
      'lib/tools/x.rb': {},
      'vendor/x.rb': {},
    },
  };

  it('follows require by every load path root that has the name, require_relative from the file, ./ from the root', () => {
    expect(reaching(project, 'lib/shop/price.rb')).toEqual([
      'spec/cart_spec.rb: requires lib/shop/price.rb via lib/shop/cart.rb',
      'spec/price_spec.rb: requires lib/shop/price.rb',
    ]);
    expect(reaching(project, 'lib/shop/cart.rb')).toEqual(['spec/cart_spec.rb: requires lib/shop/cart.rb']);
  });

  it('takes a name every root could give to any of them, and the naming convention', () => {
    // load "x" finds no x.rb at the root, so the load path: lib/tools/x.rb and vendor/x.rb.
    expect(reaching(project, 'vendor/x.rb')).toEqual(['spec/other_spec.rb: requires vendor/x.rb via lib/tools.rb']);
    expect(reaching(project, 'lib/tools/x.rb')).toEqual([
      'spec/other_spec.rb: requires lib/tools/x.rb via lib/tools.rb',
      'spec/tools/x_spec.rb: convention: lib/tools/x.rb',
    ]);
  });

  it('selects nothing for a file no unit reaches, and never the changed unit itself', () => {
    expect(reaching({ ...project, sources: { ...project.sources, 'lib/unused.rb': {} } }, 'lib/unused.rb')).toEqual([]);
    expect(reaching(project, 'spec/cart_spec.rb')).toEqual([]);
  });

  it('reads the files a Dir glob requires, and what every unit preloads', () => {
    const globbed: Project = {
      units: ['spec/a_spec.rb', 'spec/b_spec.rb'], preloads: ['spec_helper'],
      sources: {
        'spec/a_spec.rb': {}, 'spec/b_spec.rb': {},
        'spec/spec_helper.rb': { globs: [{ pattern: `${ROOT}/spec/support/**/*.rb`, abs: true, line: 1 }] },
        'spec/support/deep/matchers.rb': {},
        'spec/supported.rb': {},
      },
    };
    expect(reaching(globbed, 'spec/support/deep/matchers.rb')).toEqual([
      'spec/a_spec.rb: requires spec/support/deep/matchers.rb via spec/spec_helper.rb',
      'spec/b_spec.rb: requires spec/support/deep/matchers.rb via spec/spec_helper.rb',
    ]);
    expect(reaching(globbed, 'spec/supported.rb')).toEqual([]);
  });

  it('takes a path that starts literally and goes on computed for every file its literal parts allow', () => {
    const plugins: Project = {
      units: ['spec/a_spec.rb'],
      sources: {
        'spec/a_spec.rb': { loads: [{ kind: 'require', path: 'shop/plugins/', abs: false, parts: ['shop/plugins/', null], line: 1 }] },
        'lib/shop/plugins/tax.rb': {}, 'lib/shop/plugins/eu/vat.rb': {}, 'lib/shop/other.rb': {},
        'spec/helpers/money_helper.rb': {}, 'spec/helpers/money.rb': {}, 'lib/helpers/x_helper.rb': {},
        'spec/b_spec.rb': { loads: [{ kind: 'require_relative', path: 'helpers/', abs: false, parts: ['helpers/', null, '_helper.rb'], line: 1 }] },
      },
    };
    expect(reaching(plugins, 'lib/shop/plugins/eu/vat.rb')).toEqual(['spec/a_spec.rb: requires lib/shop/plugins/eu/vat.rb']);
    expect(reaching(plugins, 'lib/shop/other.rb')).toEqual([]);
    const relative = { ...plugins, units: ['spec/b_spec.rb'] };
    expect(['spec/helpers/money_helper.rb', 'spec/helpers/money.rb', 'lib/helpers/x_helper.rb'].map((file) => reaching(relative, file).length)).toEqual([1, 0, 0]);
  });

  it('names the first load it cannot follow that a unit reaches, and what is outside only when asked', () => {
    const sources = {
      ...project.sources,
      'lib/shop/cart.rb': { loads: [req('../../../shared/x', 'require_relative')] },
      'lib/tools.rb': { dynamic: [{ line: 3, what: 'require name' }] },
      'lib/never.rb': { error: 'line 2: syntax error' },
    };
    expect(unknownReached(graphOf({ ...project, sources }), project.units, false)).toBe('lib/tools.rb:3 loads a computed path (require name), and spec/other_spec.rb reaches it');
    const noDynamic = { ...sources, 'lib/tools.rb': {} };
    expect(unknownReached(graphOf({ ...project, sources: noDynamic }), project.units, false)).toBeNull();
    expect(unknownReached(graphOf({ ...project, sources: noDynamic }), project.units, true)).toBe('lib/shop/cart.rb loads ../shared/x.rb, outside the project, where the graph does not follow, and spec/cart_spec.rb reaches it');
    const broken = { ...noDynamic, 'lib/shop/price.rb': { error: 'line 2: syntax error' } };
    expect(unknownReached(graphOf({ ...project, sources: broken }), project.units, false)).toBe("lib/shop/price.rb does not parse with the project's Ruby (line 2: syntax error): what it loads cannot be told, and spec/price_spec.rb reaches it");
    // Changed, it is only a file that is reached.
    expect(unknownReached(graphOf({ ...project, sources: broken, changed: ['lib/shop/price.rb'] }), project.units, false)).toBeNull();
  });
});

describe('the constant graph, where files are autoloaded', () => {
  const app: Project = {
    autoload: true, rails: true,
    units: ['test/models/post_test.rb', 'test/models/signup_test.rb', 'test/integration/flow_test.rb', 'test/jobs/mail_job_test.rb'],
    sources: {
      'test/models/post_test.rb': { consts: ['PostTest', 'Post'] },
      'test/models/signup_test.rb': { consts: ['SignupTest'], words: ['users', 'one'] },
      'test/integration/flow_test.rb': { words: ['get'] },
      'test/jobs/mail_job_test.rb': { consts: ['MailJob'] },
      'app/models/application_record.rb': { words: ['primary_abstract_class'] },
      'app/models/post.rb': { consts: ['Post', 'ApplicationRecord'], superclasses: ['ApplicationRecord'], words: ['has_many', 'comments'] },
      'app/models/comment.rb': { consts: ['Comment', 'ApplicationRecord'], superclasses: ['ApplicationRecord'] },
      'app/models/user.rb': { consts: ['User', 'ApplicationRecord'], superclasses: ['ApplicationRecord'] },
      'app/models/admin.rb': { consts: ['Admin', 'User'], superclasses: ['User'] },
      'app/models/admin/role.rb': { consts: ['Admin', 'Role'] },
      'app/policies/post_policy.rb': {},
      'app/controllers/posts_controller.rb': { consts: ['Post'] },
      'app/helpers/posts_helper.rb': {},
      'app/views/posts/show.html.erb': { consts: ['Badge'] },
      'app/models/badge.rb': {},
      'app/jobs/mail_job.rb': { computed: [{ line: 2, what: 'kind.constantize' }] },
      'config/routes.rb': { words: ['resources', 'posts'] },
      'config/initializers/boot_time.rb': { consts: ['Comment'] },
      'config/environment.rb': {},
    },
  };

  it('follows constants, associations by their symbols, and the files named after a model', () => {
    expect(reaching(app, 'app/models/comment.rb')).toEqual([
      'test/integration/flow_test.rb: sends requests to app/models/comment.rb via app/controllers/posts_controller.rb',
      // A constant looked up by a computed name may be any autoloaded file.
      'test/jobs/mail_job_test.rb: convention: app/jobs/mail_job.rb, which loads app/models/comment.rb',
      'test/models/post_test.rb: convention: app/models/post.rb, which loads app/models/comment.rb',
    ]);
    expect(reaching({ ...app, units: ['test/models/post_test.rb'] }, 'app/policies/post_policy.rb')).toEqual(['test/models/post_test.rb: references app/policies/post_policy.rb']);
    expect(reaching({ ...app, units: ['test/models/signup_test.rb'] }, 'app/policies/post_policy.rb')).toEqual([]);
  });

  it('reaches controllers from tests that send requests, helpers from controllers, and STI subclasses from their superclass', () => {
    expect(reaching(app, 'app/helpers/posts_helper.rb')).toEqual([
      'test/integration/flow_test.rb: sends requests to app/helpers/posts_helper.rb via app/controllers/posts_controller.rb',
      'test/jobs/mail_job_test.rb: convention: app/jobs/mail_job.rb, which loads app/helpers/posts_helper.rb',
    ]);
    // users(:one) names User by its fixtures; Admin is loaded through User, but not every
    // model through the abstract ApplicationRecord.
    expect(reaching(app, 'app/models/admin.rb')).toEqual([
      'test/jobs/mail_job_test.rb: convention: app/jobs/mail_job.rb, which loads app/models/admin.rb',
      'test/models/signup_test.rb: references app/models/admin.rb via app/models/user.rb',
    ]);
    // Admin::Role loads Admin first.
    expect(reaching({ ...app, units: ['test/models/signup_test.rb'] }, 'app/models/admin/role.rb')).toEqual([]);
    expect(graphOf(app).edges.get('app/models/admin/role.rb')?.get('app/models/admin.rb')).toBe('references');
  });

  it('reaches every view from what renders, and what a view names; a template it cannot read may name any file', () => {
    expect(reaching(app, 'app/models/badge.rb')).toEqual([
      'test/integration/flow_test.rb: sends requests to app/models/badge.rb via app/controllers/posts_controller.rb',
      'test/jobs/mail_job_test.rb: convention: app/jobs/mail_job.rb, which loads app/models/badge.rb',
    ]);
    const sources = { ...app.sources, 'app/models/orphan.rb': {} };
    expect(reaching({ ...app, units: ['test/integration/flow_test.rb'], sources }, 'app/models/orphan.rb')).toEqual([]);
    expect(reaching({ ...app, units: ['test/integration/flow_test.rb'], sources, opaque: 'app/views/a.html.haml' }, 'app/models/orphan.rb'))
      .toEqual(['test/integration/flow_test.rb: sends requests to app/models/orphan.rb via app/controllers/posts_controller.rb']);
  });

  it('takes constants from config, which runs at boot, but not its symbols', () => {
    const graph = graphOf(app);
    expect([...graph.edges.get('config/initializers/boot_time.rb')?.keys() ?? []]).toEqual(['app/models/comment.rb']);
    expect(graph.edges.get('config/routes.rb')).toBeUndefined();
    expect(graph.edges.get('config/environment.rb')?.get('config/routes.rb')).toBe('requires');
  });

  it('without autoloading, only constants reach the files named after them', () => {
    const plain = { ...app, autoload: false, rails: false };
    // has_many :comments is a symbol; Post names app/models/post.rb, but not its family.
    expect(reaching(plain, 'app/models/comment.rb')).toEqual([]);
    expect(reaching(plain, 'app/models/post.rb')).toEqual(['test/models/post_test.rb: convention: app/models/post.rb']);
    expect(reaching(plain, 'app/policies/post_policy.rb')).toEqual([]);
    expect(reaching({ ...plain, units: ['test/jobs/signup_test.rb'], sources: { ...app.sources, 'test/jobs/signup_test.rb': { consts: ['Post'] } } }, 'app/models/post.rb'))
      .toEqual(['test/jobs/signup_test.rb: references app/models/post.rb']);
  });
});
