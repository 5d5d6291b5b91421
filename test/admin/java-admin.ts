// Kafka's own Java Admin as the referee of the admin tests: each call is one line to
// kafka/src's JavaAdmin, each answer one JSON line (see its header for the calls it knows).
// One JVM per javaAdmin() call, however many calls it carries.
import { kafkaJava } from '../helpers/kafka.js';

export async function javaAdmin(bootstrap: string, calls: object[], properties: string[] = []): Promise<any[]> {
  const r = await kafkaJava('dev.kafkawire.JavaAdmin', [bootstrap, ...properties], { input: calls.map((c) => JSON.stringify(c)).join('\n') + '\n', timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`JavaAdmin exited ${r.code ?? r.signal}:\n${r.stderr.slice(-3000)}`);
  const lines = r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  if (lines.length !== calls.length) throw new Error(`JavaAdmin answered ${lines.length} of ${calls.length} calls:\n${r.stderr.slice(-3000)}`);
  return lines;
}

/** One call's answer. */
export async function javaAdminOne(bootstrap: string, call: object, properties: string[] = []): Promise<any> {
  return (await javaAdmin(bootstrap, [call], properties))[0];
}
