// PLACEHOLDER until --command lands in this session.
import type { CustomCommand } from '../core/request.js';
import type { Adapter } from './types.js';

export function customAdapter(_custom: CustomCommand): Adapter {
  throw new Error('--command: not implemented yet');
}
