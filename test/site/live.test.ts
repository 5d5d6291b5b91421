// The explorer's live view (live.html, src/site/live.ts) in headless Chromium against real Kafka
// 4.4 through `kafka-wire bridge`: the page lists the topics, tails one and shows a record Kafka's
// own Java client produced (key, value and header decoded as explain shows record data), then
// produces a record from its form, which the tail shows and the Java consumer reads back.
// One Kafka, one bridge, one page; the screenshot goes to test-artifacts/live-view.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/site/build.js';
import { startBridge, type KafkaBridge } from '../../src/wire/bridge.js';
import { haveChromium, launchChromium, type LaunchedBrowser } from '../helpers/browser.js';
import { kafkaJava, kafkaPeer, useKafka } from '../helpers/kafka.js';
import { repoRoot } from '../helpers/shared.js';

const ok = haveChromium && await kafkaPeer();
const hex = (text: string) => Buffer.from(text).toString('hex');

describe.skipIf(!ok)('the live view, in Chromium, through kafka-wire bridge', () => {
  const kafka = useKafka();
  let out: string;
  let bridge: KafkaBridge;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-live-'));
    await buildSite(out, { minify: false });
    await kafka().createTopic('live', { partitions: 2 });
    const [host, port] = kafka().bootstrap.split(',')[0].split(':');
    // A file:// page's Origin is "null": the list lets any Origin in, as a local tool's would.
    bridge = await startBridge({ listen: { host: '127.0.0.1', port: 0 }, bootstrap: [{ host, port: Number(port) }], allowedOrigins: ['*'] });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bridge?.close();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('shows a record from the Java client, and produces one the Java client reads back', async () => {
    const java = await kafkaJava('dev.kafkawire.JavaClient', ['produce', kafka().bootstrap, 'live'], {
      input: JSON.stringify({ partition: 1, key: hex('java-key'), value: hex("from Kafka's Java client"), headers: [{ key: 'source', value: hex('JavaClient') }] }) + '\n',
      timeoutMs: 120_000,
    });
    expect(java.code, java.stderr.slice(-2000)).toBe(0);
    const acked = JSON.parse(java.stdout.trim().split('\n')[0]);

    const { page, errors } = browser;
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.goto(`${pathToFileURL(path.join(out, 'live.html')).href}?bridge=${encodeURIComponent(bridge.url)}`);
    await page.locator('#topics button[data-tail="live"]').click({ timeout: 20_000 });
    const javaRow = page.locator('#records tr', { hasText: "from Kafka's Java client" });
    await javaRow.waitFor({ timeout: 20_000 });
    const cells = await javaRow.locator('td').allTextContents();
    expect(cells[0]).toBe('1');
    expect(cells[1]).toBe(String(acked.offset));
    expect(cells.slice(3)).toEqual(['"java-key"', '"from Kafka\'s Java client"', 'source="JavaClient"']);

    await page.locator('#produce-topic').selectOption('live');
    await page.fill('#produce-partition', '0');
    await page.fill('#produce-key', 'page-key');
    await page.fill('#produce-value', 'from the live view');
    await page.click('#produce button[type=submit]');
    await page.locator('#status', { hasText: 'produced to live partition 0' }).waitFor({ timeout: 20_000 });
    await page.locator('#records tr', { hasText: 'from the live view' }).waitFor({ timeout: 20_000 });
    fs.mkdirSync(path.join(repoRoot, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'live-view.png'), fullPage: true });
    expect(errors).toEqual([]);

    // What the page produced is in Kafka as the Java consumer sees it.
    const read = await kafkaJava('dev.kafkawire.JavaClient', ['consume', kafka().bootstrap, 'live'], { timeoutMs: 120_000 });
    expect(read.code, read.stderr.slice(-2000)).toBe(0);
    const records = read.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records).toContainEqual(expect.objectContaining({ partition: 0, key: hex('page-key'), value: hex('from the live view') }));
    expect(records).toHaveLength(2);
    // Every connection went through the bridge, to the broker by the bridge's name for it.
    expect(bridge.brokers.size).toBe(1);
  }, 180_000);
});
