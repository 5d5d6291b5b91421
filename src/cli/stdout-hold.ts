// The bin ends the process at once when writing to stdout fails (EPIPE, the reader went away:
// exit 0, `| head` is not an error; any other error: thrown). A command with work to finish after
// its output failed (consume --share releasing or rejecting the records whose lines never got
// out, then closing its share sessions) holds that off: while held, stdout's errors reach the
// command through its writes only.

let holds = 0;

/** Holds off the bin's handling of stdout errors until the returned release is called. */
export function holdStdoutErrors(): () => void {
  holds++;
  let released = false;
  return () => { if (!released) { released = true; holds--; } };
}

/** The bin's stdout error handler asks: true when a command holds it (the error is that command's). */
export function stdoutErrorsHeld(): boolean {
  return holds > 0;
}
