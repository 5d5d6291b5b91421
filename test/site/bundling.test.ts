// The site's pages share the one browser bundle instead of carrying copies of the library: the
// bundle as a classic script (src/site/bundling.ts), the site's scripts reaching the library only
// through src/site/library.ts, every name they take there being one the bundle exports; and the
// site as `kafka-wire site` writes it from the built package, in Chromium from file:// (no flags)
// and over HTTP, where initZstd() fetches the zstd chunk and zstd.wasm from beside the bundle, and
// in Firefox from file://.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserBundleOptions, classicScript, siteScriptOptions, SITE_SCRIPTS } from '../../src/site/bundling.js';
import * as library from '../../src/site/library.js';
import { sampleFrame } from '../../src/explain/samples.js';
import { chromiumPath, haveChromium } from '../helpers/browser.js';
import { peer } from '../helpers/peer.js';
import { repoRoot } from '../helpers/shared.js';

const built = fs.existsSync(path.join(repoRoot, 'dist', 'src', 'cli', 'main.js')) && fs.existsSync(path.join(repoRoot, 'dist', 'site-assets'));
if (!built) console.warn('SKIPPED: the built site tests need `npm run build` first');

describe('the browser bundle as a classic script', () => {
  it('sets the global to the module\'s exports, renamed as the export clause says', () => {
    const script = classicScript('var a=1;function b(){return a+1}export{a as one,b as two,a};');
    const context = vm.createContext({});
    vm.runInContext(script, context);
    expect(context.kafkaWire.one).toBe(1);
    expect(context.kafkaWire.two()).toBe(2);
    expect(context.kafkaWire.a).toBe(1);
  });

  it('refuses module syntax it cannot carry over', () => {
    expect(() => classicScript('import{x}from"./y.js";export{x};')).toThrow(/module syntax/);
    expect(() => classicScript('var u=new URL("z",import.meta.url);export{u};')).toThrow(/module syntax/);
    expect(() => classicScript('var a=1;')).toThrow(/export clause/);
    // The zstd chunk is reached by import(), which a classic script may make.
    expect(classicScript('var z=()=>import("./chunk-A.js");export{z};')).toContain('import("./chunk-A.js")');
  });

  it('is the bundle whose exports include every name the site\'s scripts take from the library', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-bundle-'));
    try {
      await build({ ...browserBundleOptions(path.join(repoRoot, 'src', 'browser.ts'), dir), logLevel: 'silent' });
      vm.runInThisContext(classicScript(fs.readFileSync(path.join(dir, 'kafka-wire.js'), 'utf8')));
      const exported = Object.keys((globalThis as { kafkaWire?: object }).kafkaWire!);
      delete (globalThis as { kafkaWire?: object }).kafkaWire;
      expect(Object.keys(library).filter((name) => !exported.includes(name))).toEqual([]);
      expect(Object.keys(library).length).toBeGreaterThan(20);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the site\'s scripts', () => {
  it('refuse an import of the library other than through ./library.js', async () => {
    // A page script in a folder of its own, importing from the folder above as src/site's would.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-page-'));
    try {
      fs.writeFileSync(path.join(dir, 'page.ts'), "import { escapeHtml } from '../explain/hex.js';\nconsole.log(escapeHtml('<'));\n");
      await expect(build({ ...siteScriptOptions(path.join(dir, 'page.ts'), path.join(dir, 'page.js')), logLevel: 'silent' }))
        .rejects.toThrow(/reaches the library through \.\/library\.js only/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!built)('are small in the built package: the library is not in them', () => {
    for (const file of Object.values(SITE_SCRIPTS)) {
      expect(fs.statSync(path.join(repoRoot, 'dist', 'site-assets', file)).size, file).toBeLessThan(20_000);
    }
  });
});

describe.skipIf(!built || !haveChromium)('the site written by the built package, in Chromium', () => {
  let out: string;
  let server: Server;
  let url: string;
  let close: () => Promise<void>;
  let newPage: () => Promise<import('playwright-core').Page>;
  const problems: string[] = [];

  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-site-built-'));
    execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'src', 'cli', 'main.js'), 'site', out], { stdio: 'pipe' });
    server = createServer((req, res) => {
      const file = path.join(out, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
      if (!file.startsWith(out + path.sep) || !fs.existsSync(file)) { res.writeHead(404).end(); return; }
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.html') ? 'text/html' : file.endsWith('.wasm') ? 'application/wasm' : 'text/css';
      res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    // Launched without --allow-file-access-from-files: file:// as a user opens it.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-chromium-'));
    const { chromium } = await import('playwright-core');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    newPage = async () => {
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(e.message));
      // Every file the page asks for is there (but the favicon, which the site does not have).
      page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`); });
      page.on('requestfailed', (r) => problems.push(`failed ${r.url()}`));
      return page;
    };
    close = async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    };
  }, 120_000);

  afterAll(async () => {
    await close?.();
    server?.close();
    if (out !== undefined) fs.rmSync(out, { recursive: true, force: true });
  });

  it('writes the library once, beside the pages\' own small scripts', () => {
    const assets = fs.readdirSync(path.join(out, 'assets')).sort();
    expect(assets.filter((f) => f.endsWith('.wasm'))).toEqual(['zstd.wasm']);
    const large = assets.filter((f) => f.endsWith('.js') && f !== 'descriptions.js' && fs.statSync(path.join(out, 'assets', f)).size > 100_000);
    expect(large).toEqual(['kafka-wire.js']);
    for (const page of ['explore.html', 'capture.html']) {
      expect(fs.readFileSync(path.join(out, page), 'utf8'), page).toMatch(/<script src="assets\/kafka-wire\.js"><\/script>\n<script src="assets\/(explore|capture)\.js">/);
    }
  });

  it('explains a frame from file://', async () => {
    const frame = Buffer.from(sampleFrame(3, 'request', 12)).toString('hex');
    const page = await newPage();
    await page.goto(`${pathToFileURL(path.join(out, 'explore.html')).href}#dir=request&hex=${frame}`);
    await page.waitForSelector('#explorer[data-ready="true"]');
    expect(await page.locator('#status').innerText()).toMatch(/^MetadataRequest v12, request header v2, \d+ bytes on the wire$/);
    expect(await page.evaluate(() => typeof (window as any).kafkaWire.readCaptureStream)).toBe('function');
    await page.goto(pathToFileURL(path.join(out, 'capture.html')).href);
    await page.waitForSelector('#drop');
    expect(problems).toEqual([]);
  });

  it('over HTTP, initZstd() loads zstd\'s chunk and zstd.wasm from beside the bundle', async () => {
    const page = await newPage();
    await page.goto(`${url}explore.html`);
    await page.waitForSelector('#explorer[data-ready="true"]');
    const result = await page.evaluate(async () => {
      const k = (window as any).kafkaWire;
      await k.initZstd();
      const text = new TextEncoder().encode('kafka-wire '.repeat(100));
      const packed = k.compress('zstd', text);
      return { engine: k.zstdEngine(), packed: packed.length, same: new TextDecoder().decode(k.decompress('zstd', packed)) === 'kafka-wire '.repeat(100) };
    });
    expect(result.engine).toBe('wasm');
    expect(result.same).toBe(true);
    expect(result.packed).toBeLessThan(100);
    expect(problems).toEqual([]);
  });
});

const firefoxPath = '/usr/bin/firefox-esr';
const haveFirefox = peer(`Firefox ESR (${firefoxPath})`, fs.existsSync(firefoxPath), 'apt-get install firefox-esr');

describe.skipIf(!built || !haveFirefox)('the site written by the built package, in Firefox from file://', () => {
  let out: string;
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-site-firefox-'));
    execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'src', 'cli', 'main.js'), 'site', out], { stdio: 'pipe' });
  }, 120_000);
  afterAll(() => {
    if (out !== undefined) fs.rmSync(out, { recursive: true, force: true });
  });

  /**
   * Opens a copy of `page` from file:// in headless Firefox, with a first script collecting errors
   * and a last one posting `report` (an expression, evaluated once `ready` is true) to a server here.
   */
  async function inFirefox(page: string, hash: string, ready: string, report: string): Promise<any> {
    let resolve!: (text: string) => void;
    const posted = new Promise<string>((r) => { resolve = r; });
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        res.writeHead(200, { 'access-control-allow-origin': '*' }).end('ok');
        if (req.method === 'POST') resolve(Buffer.concat(chunks).toString());
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const html = fs.readFileSync(path.join(out, page), 'utf8')
      .replace('<head>', '<head><script>window.problems = []; addEventListener("error", (e) => problems.push(String(e.message)));</script>')
      .replace('</body>', `<script>(function wait() { if (!(${ready})) { setTimeout(wait, 50); return; }
fetch(${JSON.stringify(url)}, { method: 'POST', body: JSON.stringify({ report: ${report}, problems }) }); })();</script></body>`);
    const copy = path.join(out, `check-${page}`);
    fs.writeFileSync(copy, html);
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-wire-firefox-'));
    fs.writeFileSync(path.join(profile, 'user.js'), ['browser.shell.checkDefaultBrowser', 'datareporting.policy.dataSubmissionEnabled',
      'toolkit.telemetry.enabled', 'app.update.enabled', 'extensions.update.enabled'].map((p) => `user_pref("${p}", false);`).join('\n'));
    // Its own process group, so that the browser's helper processes end with it.
    const child = spawn(firefoxPath, ['--headless', '--no-remote', '--profile', profile, pathToFileURL(copy).href + hash],
      { stdio: 'ignore', detached: true, env: { ...process.env, MOZ_HEADLESS: '1' } });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const text = await Promise.race([posted, new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`Firefox posted nothing from ${page} in 60 s`)), 60_000))]);
      return JSON.parse(text);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
      server.close();
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    }
  }

  it('explains a frame on the explorer page, and the capture page has the library', async () => {
    const frame = Buffer.from(sampleFrame(3, 'request', 12)).toString('hex');
    const explore = await inFirefox('explore.html', `#dir=request&hex=${frame}`, 'document.querySelector(\'#explorer[data-ready="true"]\')',
      'document.getElementById("status").textContent');
    expect(explore.problems).toEqual([]);
    expect(explore.report).toMatch(/^MetadataRequest v12, request header v2, \d+ bytes on the wire$/);
    const capture = await inFirefox('capture.html', '', 'document.readyState === "complete"', 'typeof kafkaWire.readCaptureStream');
    expect(capture).toEqual({ report: 'function', problems: [] });
  }, 150_000);
});
