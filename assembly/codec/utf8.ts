// UTF-8 validation for the scan's STRING fields: the bytes Java's decoder would accept without
// replacing anything (no overlong forms, no surrogates, nothing above U+10FFFF).

export function validUtf8(p: usize, n: usize): bool {
  const e = p + n;
  while (p < e) {
    if (e - p >= 8 && (load<u64>(p) & 0x8080808080808080) == 0) { p += 8; continue; }
    const b = <u32>load<u8>(p);
    if (b < 0x80) { p++; continue; }
    if (b < 0xc2) return false;
    if (b < 0xe0) {
      if (e - p < 2 || (load<u8>(p + 1) & 0xc0) != 0x80) return false;
      p += 2;
      continue;
    }
    if (b < 0xf0) {
      if (e - p < 3) return false;
      const b1 = <u32>load<u8>(p + 1);
      if ((b1 & 0xc0) != 0x80 || (load<u8>(p + 2) & 0xc0) != 0x80) return false;
      if (b == 0xe0 && b1 < 0xa0) return false; // overlong
      if (b == 0xed && b1 >= 0xa0) return false; // surrogate
      p += 3;
      continue;
    }
    if (b < 0xf5) {
      if (e - p < 4) return false;
      const b1 = <u32>load<u8>(p + 1);
      if ((b1 & 0xc0) != 0x80 || (load<u8>(p + 2) & 0xc0) != 0x80 || (load<u8>(p + 3) & 0xc0) != 0x80) return false;
      if (b == 0xf0 && b1 < 0x90) return false; // overlong
      if (b == 0xf4 && b1 >= 0x90) return false; // above U+10FFFF
      p += 4;
      continue;
    }
    return false;
  }
  return true;
}
