/** What a Rails application loads without a require or a constant naming it: config/
 * at boot, controllers by the routes, every helper and every view from what renders, a model's STI
 * subclasses by the type column, and, when the test environment eager-loads, all of app/. */
import type { ProjectFacts } from '../../project/facts.js';
import type { GraphBuilder } from './graph.js';
import type { SourceFacts } from './sources.js';

const lockLists = (facts: ProjectFacts, gem: string): boolean =>
  new RegExp(`^\\s{4}${gem} \\(`, 'm').test(facts.read('Gemfile.lock') ?? '');

export const isRailsApp = (facts: ProjectFacts): boolean => facts.exists('config/application.rb') || lockLists(facts, 'railties');

/** Zeitwerk (Rails 6 and later, and gems that use it) or ActiveSupport's own autoloading:
 * files are loaded by the constants code names, not by requires. */
export const autoloads = (facts: ProjectFacts, sources: ReadonlyMap<string, SourceFacts>): boolean =>
  isRailsApp(facts) || ['zeitwerk', 'activesupport'].some((gem) => lockLists(facts, gem))
  || [...sources.values()].some((s) => s.consts.includes('Zeitwerk'));

/** Tests that send requests through the app's routes, which name controllers by strings. */
const REQUEST_DIRS = /^(?:test\/(?:controllers|integration|system|mailers)|spec\/(?:requests?|system|features?|controllers?|routing|views?|integration|api|acceptance|mailers))\//;
const REQUEST_CONSTS = ['IntegrationTest', 'SystemTestCase', 'ApplicationSystemTestCase', 'Capybara', 'ActionDispatch'];
const REQUEST_TYPES = ['request', 'system', 'feature', 'controller', 'view', 'routing', 'mailer'];

function sendsRequests(unit: string, facts: SourceFacts | undefined): boolean {
  if (REQUEST_DIRS.test(unit)) return true;
  if (facts === undefined) return false;
  return facts.consts.some((c) => REQUEST_CONSTS.includes(c)) || (facts.words.includes('type') && facts.words.some((w) => REQUEST_TYPES.includes(w)));
}

export function addRailsEdges(graph: GraphBuilder): void {
  const { files, units, sources } = graph.input;
  const under = (dir: RegExp) => files.filter((file) => dir.test(file));
  // Rails loads config/ at boot, after config/environment.rb (or application.rb) is required.
  const boot = ['config/environment.rb', 'config/application.rb'].find((file) => graph.has(file));
  if (boot !== undefined) for (const file of under(/^config\//)) graph.add(boot, file, 'requires');
  const routed = under(/^app\/(?:controllers|channels)\//);
  for (const unit of units) if (sendsRequests(unit, sources.get(unit))) for (const to of routed) graph.add(unit, to, 'requests');
  // include_all_helpers: every controller's views (and components') have every helper.
  const helpers = under(/^app\/helpers\//);
  for (const file of under(/^app\/(?:controllers|components|views)\//)) for (const to of helpers) graph.add(file, to, 'references');
  // What renders may render any view or partial, which names what it uses; a template
  // whose code is not read may name any file.
  const { templates, opaqueTemplate } = graph.input;
  const rendered = opaqueTemplate === null ? templates : [...templates, ...graph.allDefiners()];
  for (const file of under(/^app\/(?:controllers|mailers|components|helpers|views)\//)) for (const to of rendered) graph.add(file, to, 'references');
  // A record of a subclass is loaded through its superclass (STI's type column).
  for (const file of under(/^app\/models\//)) {
    for (const name of sources.get(file)?.superclasses ?? []) {
      for (const parent of graph.definers(name, false)) {
        const words = sources.get(parent)?.words ?? [];
        if (parent.startsWith('app/models/') && !words.includes('abstract_class') && !words.includes('primary_abstract_class')) graph.add(parent, file, 'references');
      }
    }
  }
}

/** The test environment's `config.eager_load`, when it loads the whole application at
 * boot: why, or null when it does not. An expression run-tests cannot evaluate counts as
 * eager. `ENV["CI"].present?` (Rails 7's default) is read from the environment given. */
export function eagerLoading(facts: ProjectFacts, env: NodeJS.ProcessEnv): string | null {
  let found: { file: string; expr: string } | null = null;
  for (const file of ['config/application.rb', 'config/environments/test.rb']) {
    const text = (facts.read(file) ?? '').split('\n').filter((line) => !/^\s*#/.test(line)).join('\n');
    for (const m of text.matchAll(/\bconfig\.eager_load\s*=\s*([^\n#]+)/g)) found = { file, expr: (m[1] ?? '').trim() };
  }
  if (found === null || /^(?:false|nil)$/.test(found.expr)) return null;
  const variable = /^(!!)?ENV(?:\[["'](\w+)["']\](\.present\?)?|\.fetch\(["'](\w+)["'],\s*(?:nil|false)\)|\.key\?\(["'](\w+)["']\))$/.exec(found.expr);
  if (variable) {
    const name = variable[2] ?? variable[4] ?? variable[5] ?? '';
    const value = env[name];
    const set = variable[3] !== undefined ? (value ?? '').trim() !== '' : value !== undefined;
    return set ? `${found.file} eager-loads the application (config.eager_load = ${found.expr}, and ${name} is set)` : null;
  }
  const evaluated = found.expr === 'true' ? '' : ', which run-tests cannot evaluate';
  return `${found.file} eager-loads the application (config.eager_load = ${found.expr}${evaluated})`;
}

/** Whether eager loading loads `file`: app/, lib/ under autoload_lib, anything outside
 * the tests when the application adds its own eager_load_paths. */
export function eagerLoaded(file: string, facts: ProjectFacts): boolean {
  if (file.startsWith('app/')) return true;
  const application = facts.read('config/application.rb') ?? '';
  if (/eager_load_paths/.test(application)) return !/^(?:spec|test|config|db)\//.test(file);
  return /autoload_lib/.test(application) && file.startsWith('lib/');
}
