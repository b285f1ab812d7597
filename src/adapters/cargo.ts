// PLACEHOLDER until this runner's adapter lands in this session: detects nothing.
import type { Adapter } from './types.js';

export const cargo: Adapter = {
  id: 'cargo',
  markers: [],
  lookingFor: '',
  installHint: '',
  detect: () => null,
  plan: () => {
    throw new Error('cargo: not implemented yet');
  },
};
