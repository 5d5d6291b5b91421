// SCRAM client (src/wire/scram.ts): RFC 7677's SCRAM-SHA-256 exchange byte for byte, the same
// derivation for SHA-512 checked against node:crypto's independent PBKDF2/HMAC, and every way a
// server's message can be wrong refused with a ScramError (never a hang or a crash).
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ScramClient, ScramError, MAX_SCRAM_ITERATIONS } from '../../src/wire/scram.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe('SCRAM client', () => {
  it('reproduces RFC 7677 section 3 (SCRAM-SHA-256, user "user", password "pencil")', async () => {
    const scram = new ScramClient('SCRAM-SHA-256', 'user', 'pencil', 'rOprNGfwEbeRWgbNEkqO');
    expect(dec(scram.clientFirst())).toBe('n,,n=user,r=rOprNGfwEbeRWgbNEkqO');
    const serverFirst = 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096';
    expect(dec(await scram.clientFinal(enc(serverFirst)))).toBe(
      'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=');
    await scram.verifyServerFinal(enc('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='));
    await expect(scram.verifyServerFinal(enc('v=7rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='))).rejects.toThrow(/signature is wrong/);
  });

  it('computes SCRAM-SHA-512 proofs and signatures as node:crypto does', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const scram = new ScramClient('SCRAM-SHA-512', 'a=b,c', 'pässwörd', 'clientnonce');
    expect(dec(scram.clientFirst())).toBe('n,,n=a=3Db=2Cc,r=clientnonce');
    const serverFirst = `r=clientnonceSERVER,s=${salt.toString('base64')},i=4096`;
    const final = dec(await scram.clientFinal(enc(serverFirst)));
    // The same derivation with node:crypto (OpenSSL), an independent implementation.
    const salted = pbkdf2Sync(Buffer.from('pässwörd'), salt, 4096, 64, 'sha512');
    const clientKey = createHmac('sha512', salted).update('Client Key').digest();
    const storedKey = createHash('sha512').update(clientKey).digest();
    const withoutProof = 'c=biws,r=clientnonceSERVER';
    const authMessage = `n=a=3Db=2Cc,r=clientnonce,${serverFirst},${withoutProof}`;
    const signature = createHmac('sha512', storedKey).update(authMessage).digest();
    const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!));
    expect(final).toBe(`${withoutProof},p=${proof.toString('base64')}`);
    const serverKey = createHmac('sha512', salted).update('Server Key').digest();
    await scram.verifyServerFinal(enc(`v=${createHmac('sha512', serverKey).update(authMessage).digest('base64')}`));
  });

  const bad: [string, string, RegExp][] = [
    ['a nonce that does not extend the client\'s', 'r=other,s=AAAA,i=4096', /nonce/],
    ['the same nonce back', 'r=n0nce,s=AAAA,i=4096', /nonce/],
    ['no salt', 'r=n0nceX,i=4096', /"s="/],
    ['a salt that is not base64', 'r=n0nceX,s=!!!!,i=4096', /base64/],
    ['too few iterations', 'r=n0nceX,s=AAAA,i=1', /iteration count 1 /],
    ['too many iterations', `r=n0nceX,s=AAAA,i=${MAX_SCRAM_ITERATIONS + 1}`, /iteration count/],
    ['an absurd iteration count', 'r=n0nceX,s=AAAA,i=99999999999999', /bad iteration count/],
    ['an error attribute', 'e=unknown-user', /refused the first message: unknown-user/],
    ['a mandatory extension', 'm=ext,r=n0nceX,s=AAAA,i=4096', /extension/],
    ['garbage', 'not scram at all', /malformed attribute/],
  ];
  for (const [what, serverFirst, message] of bad) {
    it(`refuses a server-first-message with ${what}`, async () => {
      const scram = new ScramClient('SCRAM-SHA-256', 'u', 'p', 'n0nce');
      scram.clientFirst();
      const error = await scram.clientFinal(enc(serverFirst)).catch((e) => e);
      expect(error).toBeInstanceOf(ScramError);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses invalid UTF-8 and a server-final error', async () => {
    const scram = new ScramClient('SCRAM-SHA-256', 'u', 'p', 'n0nce');
    scram.clientFirst();
    await expect(scram.clientFinal(new Uint8Array([0xff, 0xfe]))).rejects.toThrow(/not UTF-8/);
    await scram.clientFinal(enc('r=n0nceX,s=AAAA,i=4096'));
    await expect(scram.verifyServerFinal(enc('e=invalid-proof'))).rejects.toThrow(/refused the proof: invalid-proof/);
  });
});
