import { describe, expect, it } from '@jest/globals';
import { HIDDEN_CA_CERTS, restoreHiddenEnv } from '../../../src/cli/environment.js';

describe('restoreHiddenEnv', () => {
  it('gives NODE_EXTRA_CA_CERTS back and drops the copy', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/bin', [HIDDEN_CA_CERTS]: '/etc/certs.pem' };
    restoreHiddenEnv(env);
    expect(env).toEqual({ PATH: '/bin', NODE_EXTRA_CA_CERTS: '/etc/certs.pem' });
  });

  it('keeps a NODE_EXTRA_CA_CERTS that is there, and still drops the copy', () => {
    const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/mine.pem', [HIDDEN_CA_CERTS]: '/other.pem' };
    restoreHiddenEnv(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/mine.pem' });
  });

  it('changes nothing without the copy', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/bin' };
    restoreHiddenEnv(env);
    expect(env).toEqual({ PATH: '/bin' });
  });
});
