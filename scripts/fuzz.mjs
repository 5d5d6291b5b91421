// npm run fuzz -- --iterations N [--seed S]: the test suite's mutation fuzzer with a larger budget.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const env = {
  ...process.env,
  FUZZ_ITERATIONS: option('--iterations', '1000000'),
  FUZZ_SEED: option('--seed', String(Date.now() % 2 ** 31)),
};
console.log(`fuzzing ${env.FUZZ_ITERATIONS} inputs with seed ${env.FUZZ_SEED}`);
const result = spawnSync('npx', ['vitest', 'run', 'test/fuzz/fuzz.test.ts', 'test/fuzz/records-fuzz.test.ts', '--testTimeout', '0'], { env, stdio: 'inherit' });
process.exit(result.status ?? 1);
