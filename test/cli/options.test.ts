// The one option parser every command uses: long and short forms, inline values, repeats, `--`,
// and the refusals (unknown options, missing values, values on flags) as usage errors.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { integerArg, parseOptions, type OptionSpec } from '../../src/cli/options.js';

const specs: OptionSpec[] = [
  { name: 'broker', short: 'b', value: 'HOST:PORT', help: '' },
  { name: 'offset', short: 'o', value: 'OFFSET', help: '' },
  { name: 'header', short: 'H', value: 'k=v', multiple: true, help: '' },
  { name: 'exit', short: 'e', help: '' },
];

describe('parseOptions', () => {
  it('reads --opt value, --opt=value, -x value, -xvalue and flags, in any order with positionals', () => {
    expect(parseOptions(['a', '--broker', 'h:1', '-e', 'b', '-o=5'], specs)).toEqual({
      options: { broker: 'h:1', exit: true, offset: '=5' }, positionals: ['a', 'b'],
    });
    expect(parseOptions(['--broker=h:1', '-bh:2', '-ob'], specs).options).toEqual({ broker: 'h:2', offset: 'b' });
  });

  it('gives a valued option the next argument even when it starts with a dash (-o -5)', () => {
    expect(parseOptions(['-o', '-5'], specs).options.offset).toBe('-5');
    expect(parseOptions(['--offset', '--'], specs).options.offset).toBe('--');
  });

  it('collects repeated values of a multiple option; the last wins otherwise', () => {
    expect(parseOptions(['-H', 'a=1', '--header=b=2', '-b', 'x', '-b', 'y'], specs).options).toEqual({ header: ['a=1', 'b=2'], broker: 'y' });
  });

  it('takes - as a positional and everything after -- as positionals', () => {
    expect(parseOptions(['-', '--', '-e', '--broker'], specs)).toEqual({ options: {}, positionals: ['-', '-e', '--broker'] });
  });

  it('refuses unknown options, missing values and values on flags, naming them', () => {
    const refusal = (args: string[]) => {
      try {
        parseOptions(args, specs);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${args.join(' ')}`);
    };
    expect(refusal(['--bogus'])).toBe('unknown option --bogus');
    expect(refusal(['--bogus=1'])).toBe('unknown option --bogus');
    expect(refusal(['-x'])).toBe('unknown option -x');
    expect(refusal(['--broker'])).toBe('--broker needs a value (HOST:PORT)');
    expect(refusal(['-b'])).toBe('-b needs a value (HOST:PORT)');
    expect(refusal(['--exit=yes'])).toBe('--exit takes no value');
    expect(refusal(['-eyes'])).toBe('-e takes no value');
  });
});

describe('integerArg', () => {
  it('takes integers within bounds and names what is wrong otherwise', () => {
    expect(integerArg('12', 'N', 0, 20)).toBe(12);
    expect(integerArg(undefined, 'N')).toBeUndefined();
    expect(() => integerArg('1.5', 'N')).toThrow(/N must be an integer/);
    expect(() => integerArg('21', 'N', 0, 20)).toThrow('N must be an integer from 0 to 20, not "21"');
    expect(() => integerArg('NaN', 'N')).toThrow(UsageError);
  });
});
