// The tape between the codec module and the facade: i32 words (values, or offsets into the input
// or the heap). The scan appends them as it reads a frame; emit takes them in the same order to
// write one. One cursor serves both, since a call does only one of the two.

export let tape: usize = 0;
export let tapeEnd: usize = 0;   // the scan's limit; emit trusts the facade's tape

/** Where the next tape word would go: after a failed scan, the end of what it had read. */
export function tapePosition(): usize { return tape; }

/** The next word, for emit. */
@inline export function take(): i32 {
  const v = load<i32>(tape);
  tape += 4;
  return v;
}
