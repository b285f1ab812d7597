// PLACEHOLDER until this runner's adapter lands in this session: detects nothing.
import type { Adapter } from './types.js';

export const pytest: Adapter = {
  id: 'pytest',
  markers: [],
  lookingFor: '',
  installHint: '',
  detect: () => null,
  plan: () => {
    throw new Error('pytest: not implemented yet');
  },
};
