import type { ChangePlan } from '../model/report.js';
import { visible } from './visible.js';

interface Planned {
  readonly project_root: string;
  readonly framework: string | null;
  readonly plan: ChangePlan | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** Most units listed by name per project; the rest are counted. */
const MAX_LISTED = 50;

/** `run-tests plan` for a person: per project, what changed and what runs, and why. */
export function renderPlan(projects: readonly Planned[]): string {
  const lines: string[] = [];
  for (const project of projects) {
    if (lines.length > 0) lines.push('');
    lines.push(`${project.project_root}${project.framework ? ` (${project.framework})` : ''}`);
    const { plan } = project;
    if (plan === null) {
      lines.push(`  cannot plan: ${project.error?.message ?? 'unknown'}`);
      continue;
    }
    const against = plan.ref === null ? `HEAD${short(plan.head)}` : `${plan.ref} (merge base${short(plan.base)})`;
    lines.push(`  changed against ${against}: ${plan.changed.length === 0 ? 'nothing here' : plan.changed.map((c) => `${c.file}${c.change === 'modified' ? '' : ` (${c.change})`}`).join(', ')}`);
    if (plan.whole_suite !== null) lines.push(`  runs the whole suite: ${plan.whole_suite.reason}`);
    else if (plan.units.length === 0) lines.push('  nothing to run: no change affects this project');
    else {
      lines.push(`  runs ${plan.units.length} ${plan.units.length === 1 ? 'unit' : 'units'}:`);
      for (const unit of plan.units.slice(0, MAX_LISTED)) lines.push(`    ${unit.unit}  (${unit.reasons.join('; ')})`);
      if (plan.units.length > MAX_LISTED) lines.push(`    … and ${plan.units.length - MAX_LISTED} more (--json lists them all)`);
    }
  }
  return `${visible(lines.join('\n'), { lines: true })}\n`;
}

const short = (sha: string | null): string => (sha === null ? ' (no commit yet)' : ` ${sha.slice(0, 10)}`);
