/* The one function kafka-wire calls in its zstd decoder (scripts/build-zstd.mjs): ZSTD_decompress
 * with one decompression context kept for the module's life, so a call neither allocates nor
 * initialises a context (ZSTD_decompress would, each time). Returns the bytes written or zstd's
 * error code as (size_t)-code, which JavaScript reads as a negative i32. */
#include "zstd.h"

static ZSTD_DCtx *context;

__attribute__((export_name("decompress")))
size_t kafka_wire_decompress(void *dst, size_t capacity, const void *src, size_t length) {
  if (context == NULL) {
    context = ZSTD_createDCtx();
    if (context == NULL) return (size_t)-64; /* ZSTD_error_memory_allocation */
  }
  return ZSTD_decompressDCtx(context, dst, capacity, src, length);
}
