/** Every runner's id, in detection order: the first runner whose detect() gives a reason
 * wins. The JavaScript runners choose among themselves (src/ecosystems/node/project.ts:
 * dependency, config file, scripts.test), and only claim a project with such evidence;
 * minitest's Gemfile or Rakefile is the weakest sign, so it comes last.
 *
 * Apart from the registry (./index.ts, typed by these ids), so that the CLI can name the
 * runners in `--help` without loading any of them. */
export const RUNNER_IDS = ['rails', 'rspec', 'vitest', 'jest', 'mocha', 'node-test', 'go', 'cargo', 'unittest', 'pytest', 'minitest'] as const;

export type RunnerId = (typeof RUNNER_IDS)[number];
