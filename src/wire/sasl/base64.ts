// base64 and base64url over btoa/atob (every runtime has them), for the SASL mechanisms.

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** base64url without padding (RFC 4648 section 5), as JWS and MSK tokens use it. */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The bytes of base64url text (padding optional); null when it is not base64url. */
export function unbase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const std = text.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
  if (std.length % 4 === 1) return null;
  return Uint8Array.from(atob(std + '='.repeat((4 - (std.length % 4)) % 4)), (c) => c.charCodeAt(0));
}
