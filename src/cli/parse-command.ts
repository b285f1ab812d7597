// PLACEHOLDER until run-tests parse lands in this session.
import type { ProjectRun } from '../core/run-project.js';
import { usageError } from '../core/errors.js';

export async function importReport(_file: string, _format: string | null, _cwd: string): Promise<ProjectRun> {
  throw usageError('parse: not implemented yet');
}
