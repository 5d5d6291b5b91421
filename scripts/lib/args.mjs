// The build scripts' one command-line reader: `--name VALUE` or `--name=VALUE` for each option a
// script names, `--help`/`-h` for its usage, and exit 1 naming anything else.

/**
 * Reads `argv` into the `options` handlers (option name -> receives its value); prints `usage` on
 * --help. `script` names the script in error messages.
 */
export function readArgs(script, argv, usage, options) {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const key = eq >= 0 ? arg.slice(0, eq) : arg;
    if (key === '--help' || key === '-h') {
      console.log(`usage: ${usage}`);
      process.exit(0);
    }
    const take = options[key];
    if (take === undefined) exitWith(script, `unknown argument: ${arg}`);
    if (eq < 0 && i + 1 >= argv.length) exitWith(script, `${key} needs a value`);
    take(eq >= 0 ? arg.slice(eq + 1) : argv[++i]);
  }
}

/** A script's refusal: the message on stderr, exit 1. */
export function exitWith(script, message) {
  console.error(`${script}: ${message}`);
  process.exit(1);
}
