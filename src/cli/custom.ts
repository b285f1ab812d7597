// PLACEHOLDER until --command lands in this session.
import type { CustomCommand } from '../core/request.js';
import { usageError } from '../core/errors.js';

export function parseCustomCommand(_command: string | undefined, _report: string | undefined, _cwd: string): CustomCommand {
  throw usageError('--command: not implemented yet');
}
