import fs from 'node:fs';
import path from 'node:path';

const GO_123 = '/usr/lib/go-1.23/bin';

/** No network, no toolchain switching, no caller GOFLAGS; `bin` first on PATH. */
export const goEnv = (bin: string | null): NodeJS.ProcessEnv => ({
  ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '',
  PATH: bin === null ? process.env['PATH'] : `${bin}:${process.env['PATH'] ?? ''}`,
});

/** Debian's go (1.19), and go 1.23 from bookworm-backports where it is installed. */
export const GO_TOOLCHAINS = [
  { version: 'go1.19', env: goEnv(null) },
  ...(fs.existsSync(path.join(GO_123, 'go')) ? [{ version: 'go1.23', env: goEnv(GO_123) }] : []),
];
