// Instantiates an embedded WebAssembly module: the bytes ship inside the JS as base64 (see
// scripts/asbuild.mjs), so no fetch, file read or bundler plugin is involved.

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const imports = {
  env: {
    abort(_message: number, _file: number, line: number, column: number): never {
      throw new Error(`kafka-wire: WebAssembly abort at ${line}:${column}`);
    },
  },
};

export function instantiateEmbedded(base64: string): WebAssembly.Instance {
  return new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(base64) as BufferSource), imports);
}

export async function instantiateEmbeddedAsync(base64: string): Promise<WebAssembly.Instance> {
  return (await WebAssembly.instantiate(decodeBase64(base64) as BufferSource, imports)).instance;
}
