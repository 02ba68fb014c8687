import { defineConfig } from 'vitest/config';

// End-to-end suites start real servers with real worker pools; on a 2-core machine running files in
// parallel only makes them fight for the same cores, so files run one after another.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/event-loop-turn.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
