import { readProjectFacts } from '../project/facts.js';
import { detectRunner } from '../detect/detect.js';
import { everyProject, selectProjects } from '../detect/roots.js';
import { HarnessError } from '../model/errors.js';
import { SCHEMA_VERSION, type ChangePlan } from '../model/report.js';
import { checkInsideTree, readChange } from '../core/change/git-change.js';
import { planChange } from '../core/change/plan.js';

/** One project's entry in `run-tests plan --json`. */
export interface PlannedProject {
  readonly project_root: string;
  /** The runner detected (or given); null when none was. */
  readonly framework: string | null;
  readonly reason: string | null;
  /** null when the project could not be planned (`error` says why). */
  readonly plan: ChangePlan | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export interface PlanDocument {
  readonly schema_version: typeof SCHEMA_VERSION;
  readonly projects: readonly PlannedProject[];
}

export interface PlanOptions {
  readonly cwd: string;
  /** Absolute, inside cwd: they choose the projects and limit the change to themselves. */
  readonly files: readonly string[];
  readonly ref: string | null;
  readonly allProjects: boolean;
  readonly runner: string | null;
  readonly env: NodeJS.ProcessEnv;
  readonly reportersDir: string;
}

/** `run-tests plan`: what the change needs in each project, running no test. A project
 * that cannot be planned (no runner) is an entry with its error; a change git cannot
 * read is a usage error (exit 2), thrown. */
export async function planProjects(options: PlanOptions): Promise<PlanDocument> {
  const change = await readChange(options.cwd, options.ref);
  checkInsideTree(change, options.files);
  const selections = options.allProjects ? everyProject(options.cwd) : selectProjects(options.cwd, options.files);
  const projects: PlannedProject[] = [];
  for (const selection of selections) {
    const root = selection.root;
    try {
      const facts = readProjectFacts(root);
      const detection = detectRunner(facts, options.runner);
      const plan = await planChange({ runner: detection.adapter, root, facts, change, env: options.env, reportersDir: options.reportersDir, runnerArgs: [], within: selection.files });
      projects.push({ project_root: root, framework: detection.adapter.id, reason: detection.reason, plan, error: null });
    } catch (error) {
      if (!(error instanceof HarnessError) || error.code === 'USAGE') throw error;
      projects.push({ project_root: root, framework: null, reason: null, plan: null, error: { code: error.code, message: error.message } });
    }
  }
  return { schema_version: SCHEMA_VERSION, projects };
}
