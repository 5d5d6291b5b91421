// Builds the kafka-clients referee (kafka/referee, see pom.xml) against each release it judges with,
// unless the last build is current: a stamp of the release, the POM and the sources by content
// skips Maven on repeat. Used by test/helpers/referee.ts, and run by CI before the tests
// (`node kafka/referee/build.mjs`) so Maven's first downloads into ~/.m2 happen outside them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const refereeDir = dirname(fileURLToPath(import.meta.url));

/** A property of the schema pipeline's POM (kafka/schemas/pom.xml), which names the releases. @param {string} name */
function schemasProperty(name) {
  const pom = readFileSync(join(refereeDir, '..', 'schemas', 'pom.xml'), 'utf8');
  const found = new RegExp(`<${name.replaceAll('.', '\\.')}>([^<]+)</`).exec(pom);
  if (found === null) throw new Error(`kafka/schemas/pom.xml names no ${name}`);
  return found[1].trim();
}

/**
 * The releases whose generated classes judge kafka-wire's messages, newest first: a (key, version,
 * direction) is judged by the first that defines it. They are the ones the catalogue's schemas come
 * from (kafka/schemas/pom.xml): the release itself; the 4.0.x holding the KIP-932 early-access v0s
 * of the share-group APIs 76-79 (removed in 4.1; 3.9's agree with them on the wire); the 3.9.x
 * holding the versions KIP-896 removed in 4.0.
 */
export const RELEASES = ['kafka.version', 'kafka.restore.share.version', 'kafka.restore.version'].map(schemasProperty);

/** The referee's main class. */
export const MAIN_CLASS = 'dev.kafkawire.referee.Referee';

/** @param {string} release */
function buildDir(release) {
  return join(refereeDir, 'target', `kafka-${release}`); // the POM's <directory>
}

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else out.push(path);
  }
  return out;
}

/** What a build depends on: the release, the POM and every source file, by content. @param {string} release */
function buildStamp(release) {
  const hash = createHash('sha256').update(release);
  for (const file of [join(refereeDir, 'pom.xml'), ...sourceFiles(join(refereeDir, 'src'))]) {
    hash.update(relative(refereeDir, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** The JVM's classpath when the build for `release` is current, else null. @param {string} release @param {string} stamp */
function currentClasspath(release, stamp) {
  const dir = buildDir(release);
  const stampFile = join(dir, 'referee.stamp');
  const classpathFile = join(dir, 'classpath.txt');
  if (!existsSync(stampFile) || !existsSync(classpathFile)) return null;
  if (readFileSync(stampFile, 'utf8') !== stamp) return null;
  const jars = readFileSync(classpathFile, 'utf8').trim().split(':');
  if (!jars.every((jar) => existsSync(jar))) return null; // the Maven cache was cleared
  return [join(dir, 'classes'), ...jars].join(':');
}

/**
 * Builds the referee against kafka-clients `release` unless the last build is current, and returns
 * the classpath to run MAIN_CLASS with. Maven resolves kafka-clients into ~/.m2 the first time.
 * @param {string} release
 * @returns {Promise<string>}
 */
export async function buildReferee(release) {
  const stamp = buildStamp(release);
  const ready = currentClasspath(release, stamp);
  if (ready !== null) return ready;
  await promisify(execFile)('mvn', ['-q', '-f', join(refereeDir, 'pom.xml'), 'package', `-Dkafka.version=${release}`], {
    timeout: 15 * 60_000, maxBuffer: 16 << 20,
  });
  writeFileSync(join(buildDir(release), 'referee.stamp'), stamp);
  const classpath = currentClasspath(release, stamp);
  if (classpath === null) throw new Error(`the referee build for kafka-clients ${release} left no classpath`);
  return classpath;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const release of RELEASES) {
    const started = Date.now();
    await buildReferee(release);
    console.error(`referee: kafka-clients ${release} ready (${Date.now() - started} ms)`);
  }
}
