// Kafka's own codec as a referee (kafka/referee): builds the Java program against one kafka-clients
// release (kafka/referee/build.mjs: Maven, skipped when the last build is current), starts it as
// one long-running JVM, and talks to it in line-delimited JSON, many requests in flight at once
// (answers carry the request's id).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
// @ts-expect-error: a plain-JavaScript module (JSDoc-typed), also run by CI before the tests
import { buildReferee, MAIN_CLASS, RELEASES as releases } from '../../kafka/referee/build.mjs';

/** The releases that judge, newest first (kafka/referee/build.mjs says which holds what). */
export const RELEASES: readonly string[] = releases;

export type Direction = 'request' | 'response';

/** A key's version ranges in one kafka-clients release, and the header version of each version in them. */
export interface RefereeApi {
  key: number;
  name: string;
  request: [number, number];
  response: [number, number];
  /** The highest version the release calls stable (below the range's top when its latest is unstable). */
  stableHighest: number;
  /** requestHeader[v - request[0]]: the request header version of version v. */
  requestHeader: number[];
  responseHeader: number[];
}

/** What to decode or encode: a key's request or response body, or a header. */
export type RefereeTarget = { key: number; direction: Direction } | { header: 'RequestHeader' | 'ResponseHeader' };

function targetFields(target: RefereeTarget): string {
  return 'header' in target ? `"header":"${target.header}"` : `"key":${target.key},"dir":"${target.direction}"`;
}

/** One answer: Kafka's JSON of a body (numbers as strings) and Kafka's encoding of it, in hex. */
export interface RefereeAnswer {
  json: Record<string, unknown>;
  hex: string;
}

export class Referee {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private exited: Error | null = null;
  private stderr = '';

  private constructor(readonly release: string, private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => this.receive(line));
    child.stderr.on('data', (chunk: Buffer) => { this.stderr = (this.stderr + chunk.toString()).slice(-4000); });
    child.on('exit', (code, signal) => {
      this.exited = new Error(`the kafka-clients ${release} referee exited (${code ?? signal}): ${this.stderr}`);
      for (const { reject } of this.pending.values()) reject(this.exited);
      this.pending.clear();
    });
  }

  /** Builds (if needed) and starts the referee for one kafka-clients release. */
  static async start(release: string): Promise<Referee> {
    const classpath: string = await buildReferee(release);
    // A small heap and the serial collector: the messages are small and the machine has 2 cores.
    const child = spawn('java', ['-Xmx512m', '-XX:+UseSerialGC', '-cp', classpath, MAIN_CLASS], { stdio: ['pipe', 'pipe', 'pipe'] });
    return new Referee(release, child);
  }

  private receive(line: string): void {
    const reply = JSON.parse(line);
    const id = Number(reply.id);
    const waiter = this.pending.get(id);
    if (waiter === undefined) return;
    this.pending.delete(id);
    if (reply.ok) waiter.resolve(reply);
    else waiter.reject(new Error(`Kafka ${this.release}: ${reply.error}`));
  }

  /** Sends one request; `fields` is the rest of the request line as JSON text (after the id). */
  private call(fields: string): Promise<any> {
    if (this.exited !== null) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`{"id":${id},${fields}}\n`);
    });
  }

  /** Every API key the release has messages for, with their version ranges. */
  async versions(): Promise<RefereeApi[]> {
    const reply = await this.call('"op":"versions"');
    return reply.apis.map((a: any) => ({
      key: Number(a.key), name: a.name,
      request: [Number(a.request[0]), Number(a.request[1])],
      response: [Number(a.response[0]), Number(a.response[1])],
      stableHighest: Number(a.stableHighest),
      requestHeader: a.requestHeader.map(Number),
      responseHeader: a.responseHeader.map(Number),
    }));
  }

  /** Kafka reads the bytes and answers with its JSON of them and its own encoding of what it read. */
  decode(target: RefereeTarget, version: number, hex: string): Promise<RefereeAnswer> {
    return this.call(`"op":"decode",${targetFields(target)},"version":${version},"hex":"${hex}"`);
  }

  /** Kafka reads the message from its JSON form (given as JSON text) and answers with its encoding of it. */
  encode(target: RefereeTarget, version: number, kafkaJsonText: string): Promise<RefereeAnswer> {
    return this.call(`"op":"encode",${targetFields(target)},"version":${version},"json":${kafkaJsonText}`);
  }

  async stop(): Promise<void> {
    if (this.exited !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end(); // the referee exits at the end of its input
    await exited;
  }
}
