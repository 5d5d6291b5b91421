/* The native libraries' decode speed, timed the way bench/lib/decompress.mjs times kafka-wire:
 * the fastest batch of 4 calls within a window, in MB/s (10^6 bytes/s) of output, in-process.
 * Compiled at bench time against Debian's libzstd, liblz4 and libsnappy (their -dev packages):
 *   decode zstd|lz4|snappy FILE SIZE SECONDS
 * FILE is the reference tool's own output (a zstd frame, an lz4 frame, a raw snappy block), SIZE
 * its decoded size. lz4blocks times the lz4 frame's blocks alone, as `lz4 -b1` times raw blocks.
 *   decode batch gzip|snappy|lz4|zstd FILE SECONDS
 * FILE is one record batch (v2) whose records section uses that codec: times its CRC-32C check and
 * decompression, the least any consumer does with it; prints ns per batch. Prints the speed, or fails when the output is not SIZE bytes. */
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>
#include <zlib.h>
#include <nmmintrin.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static ZSTD_DCtx *zctx;
static LZ4F_dctx *lctx;

static unsigned le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24; }

/* The blocks of one LZ4 frame decoded as `lz4 -b1` decodes its own: LZ4_decompress_safe on raw
 * blocks (each with the output so far as its dictionary, for linked blocks), no checksum verified. */
static size_t lz4Blocks(const char *src, size_t n, char *dst, size_t cap) {
  const unsigned char *s = (const unsigned char *)src;
  if (n < 7 || le32(s) != 0x184D2204) return 0;
  unsigned flg = s[4];
  size_t p = 4 + 2 + ((flg & 8) ? 8 : 0) + 1, out = 0;
  for (;;) {
    if (p + 4 > n) return 0;
    unsigned bs = le32(s + p);
    p += 4;
    if (bs == 0) break;
    size_t len = bs & 0x7FFFFFFF;
    if (p + len > n) return 0;
    if (bs & 0x80000000) {
      memcpy(dst + out, src + p, len);
      out += len;
    } else {
      int r = LZ4_decompress_safe_usingDict(src + p, dst + out, (int)len, (int)(cap - out), dst, (int)out);
      if (r < 0) return 0;
      out += (size_t)r;
    }
    p += len + ((flg & 0x10) ? 4 : 0);
  }
  return out;
}

/* One whole decode of src into dst; returns the bytes produced, or 0 on error. */
static size_t decode(char codec, const char *src, size_t n, char *dst, size_t cap) {
  if (codec == 'z') {
    size_t r = ZSTD_decompressDCtx(zctx, dst, cap, src, n);
    return ZSTD_isError(r) ? 0 : r;
  }
  if (codec == 'l') {
    size_t out = 0, in = 0;
    LZ4F_resetDecompressionContext(lctx);
    while (in < n) {
      size_t dn = cap - out, sn = n - in;
      size_t r = LZ4F_decompress(lctx, dst + out, &dn, src + in, &sn, NULL);
      if (LZ4F_isError(r)) return 0;
      out += dn;
      in += sn;
      if (r == 0 && in < n) continue; /* another frame follows */
      if (dn == 0 && sn == 0) return 0;
    }
    return out;
  }
  if (codec == 'b') return lz4Blocks(src, n, dst, cap);
  size_t out = cap;
  return snappy_uncompress(src, n, dst, &out) == SNAPPY_OK ? out : 0;
}

/* CRC-32C with SSE4.2's crc32 instruction, 8 bytes a step (one stream: the simple native loop). */
static unsigned crc32c(const unsigned char *p, size_t n) {
  unsigned long long c = 0xFFFFFFFFu;
  for (; n >= 8; n -= 8, p += 8) { unsigned long long v; memcpy(&v, p, 8); c = _mm_crc32_u64(c, v); }
  unsigned c32 = (unsigned)c;
  for (; n; n--) c32 = _mm_crc32_u8(c32, *p++);
  return c32 ^ 0xFFFFFFFFu;
}

/* gzip (one or more members) through zlib's inflate; returns the bytes produced, or 0 on error. */
static size_t gunzip(const char *src, size_t n, char *dst, size_t cap) {
  static z_stream z;
  static int ready;
  if (!ready) { if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return 0; ready = 1; }
  size_t out = 0, in = 0;
  while (in < n) {
    inflateReset(&z);
    z.next_in = (unsigned char *)src + in; z.avail_in = (unsigned)(n - in);
    z.next_out = (unsigned char *)dst + out; z.avail_out = (unsigned)(cap - out);
    if (inflate(&z, Z_FINISH) != Z_STREAM_END) return 0;
    in = n - z.avail_in;
    out = cap - z.avail_out;
  }
  return out;
}

/* What a consumer must do to a compressed record batch (v2) at the least: verify its CRC-32C
 * (attributes to the end) and decompress its records section (from byte 61). */
static size_t batch(char codec, const char *src, size_t n, char *dst, size_t cap) {
  if (n < 61 || crc32c((const unsigned char *)src + 21, n - 21) != ((unsigned)(unsigned char)src[17] << 24 | (unsigned char)src[18] << 16 | (unsigned char)src[19] << 8 | (unsigned char)src[20])) return 0;
  if (codec == 'g') return gunzip(src + 61, n - 61, dst, cap);
  return decode(codec, src + 61, n - 61, dst, cap);
}

/* The whole file at `path` (its size in *n), or NULL after saying why. */
static char *readFile(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return NULL; }
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *src = malloc(*n);
  size_t got = fread(src, 1, *n, f);
  fclose(f);
  if (got != *n) { fprintf(stderr, "%s: short read\n", path); return NULL; }
  return src;
}

/* batch gzip|snappy|lz4|zstd FILE SECONDS: a whole record batch (see batch()); prints ns per batch. */
static int batchMain(char **argv) {
  const char *c = argv[2];
  char codec = c[0] == 'g' ? 'g' : c[0] == 'z' ? 'z' : c[0] == 'l' ? 'l' : 's';
  size_t n;
  char *src = readFile(argv[3], &n);
  if (!src) return 2;
  size_t cap = 64 << 20;
  char *dst = malloc(cap);
  zctx = ZSTD_createDCtx();
  LZ4F_createDecompressionContext(&lctx, LZ4F_VERSION);
  if (batch(codec, src, n, dst, cap) == 0) { fprintf(stderr, "batch: CRC or decode failed\n"); return 1; }
  double window = atof(argv[4]), best = 1e9, start = now();
  while (now() - start < window) {
    double t = now();
    for (int i = 0; i < 4; i++) batch(codec, src, n, dst, cap);
    double each = (now() - t) / 4;
    if (each < best) best = each;
  }
  printf("%.0f\n", best * 1e9);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "batch") == 0) return batchMain(argv);
  if (argc != 5) { fprintf(stderr, "usage: decode zstd|lz4|lz4blocks|snappy FILE SIZE SECONDS\n"); return 2; }
  /* lz4blocks: the frame's blocks alone (see lz4Blocks); lz4: the whole frame through LZ4F. */
  char codec = argv[1][0] == 'z' ? 'z' : strcmp(argv[1], "lz4blocks") == 0 ? 'b' : argv[1][0] == 'l' ? 'l' : 's';
  size_t n;
  char *src = readFile(argv[2], &n);
  if (!src) return 2;
  size_t size = (size_t)atol(argv[3]);
  double window = atof(argv[4]);
  /* At least lz4's largest block, so that LZ4F decodes straight into dst rather than through its own buffer. */
  size_t cap = (size > (4 << 20) ? size : (4 << 20)) + 64;
  char *dst = malloc(cap);
  zctx = ZSTD_createDCtx();
  LZ4F_createDecompressionContext(&lctx, LZ4F_VERSION);
  if (decode(codec, src, n, dst, cap) != size) { fprintf(stderr, "decode: wrong size\n"); return 1; }
  double best = 1e9, start = now();
  while (now() - start < window) {
    double t = now();
    for (int i = 0; i < 4; i++) decode(codec, src, n, dst, cap);
    double each = (now() - t) / 4;
    if (each < best) best = each;
  }
  printf("%.1f\n", size / best / 1e6);
  return 0;
}
