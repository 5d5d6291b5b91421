// `kafka-wire group` and `consume -G` arguments: what is refused before any connection, and how
// --to and -o read (the commands themselves run against brokers in group-kafka/group-mock tests).

import { describe, expect, it } from 'vitest';
import { runCli } from '../wire/cli-io.js';
import { resetTargetArg } from '../../src/cli/group.js';
import { resetPolicyArg, topicArg } from '../../src/cli/group-consume.js';

describe('group command arguments', () => {
  it('needs an action and, but for list, a group', async () => {
    for (const [args, message] of [
      [['-b', '127.0.0.1:1'], /needs list, describe GROUP or reset-offsets GROUP/],
      [['frobnicate', '-b', '127.0.0.1:1'], /not "frobnicate"/],
      [['describe', '-b', '127.0.0.1:1'], /group describe needs a GROUP/],
      [['list', 'g', '-b', '127.0.0.1:1'], /group list takes no group/],
      [['reset-offsets', 'g', '-b', '127.0.0.1:1'], /needs --to/],
      [['reset-offsets', 'g', '-b', '127.0.0.1:1', '--to', 'yesterday'], /--to must be/],
    ] as const) {
      const r = await runCli('group', [...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('reads --to as kafka-consumer-groups.sh people expect', () => {
    expect(resetTargetArg('earliest')).toBe('earliest');
    expect(resetTargetArg('latest')).toBe('latest');
    expect(resetTargetArg('42')).toEqual({ offset: 42n });
    expect(resetTargetArg('s@1700000000000')).toEqual({ timestamp: 1700000000000n });
    expect(resetTargetArg('2024-01-02T03:04:05Z')).toEqual({ timestamp: BigInt(Date.parse('2024-01-02T03:04:05Z')) });
  });

  it('reads consume -G topics and -o', () => {
    expect(topicArg('orders')).toBe('orders');
    expect(topicArg('^audit-.*')).toEqual(/^audit-.*/);
    expect(() => topicArg('^(')).toThrow(/bad topic pattern/);
    expect(resetPolicyArg(undefined)).toBe('earliest');
    expect(resetPolicyArg('beginning')).toBe('earliest');
    expect(resetPolicyArg('end')).toBe('latest');
    expect(resetPolicyArg('s@5')).toEqual({ timestamp: 5n });
    expect(() => resetPolicyArg('-5')).toThrow(/reset policy/);
  });

  it('consume -G needs topics and refuses -t / -p', async () => {
    expect((await runCli('consume', ['-b', '127.0.0.1:1', '-G', 'g'])).stderr).toMatch(/at least one topic/);
    expect((await runCli('consume', ['-b', '127.0.0.1:1', '-G', 'g', '-t', 'x', 'y'])).stderr).toMatch(/no -t or -p/);
  });
});
