// kafka-wire's baseline build (bench/run.mjs --baseline DIR): the kafka-wire contender, the same
// calls, loaded from DIR/dist instead of this checkout's. Its rows are the kafka-wire rows' twins.
import { join } from 'node:path';

process.env.KAFKA_WIRE_BENCH_DIST = join(process.env.KAFKA_WIRE_BENCH_BASELINE, 'dist');
export const { setup } = await import('./kafka-wire.mjs');
