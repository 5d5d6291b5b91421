// The peers' import scripts print records as `kafka-wire consume` does: one JSON object per line
// {topic, partition, offset, timestamp, key, value, headers}, text decoded as UTF-8, one write per
// response.
import { writeSync } from 'node:fs';

const text = (b) => (b === null || b === undefined ? null : b.toString('utf8'));

export function printer(topic) {
  let lines = [];
  return {
    record(partition, offset, timestamp, key, value, headers) {
      lines.push(JSON.stringify({
        topic, partition, offset: Number(offset), timestamp: Number(timestamp), key: text(key), value: text(value),
        headers: headers.map(([k, v]) => ({ key: String(k), value: text(v) })),
      }));
    },
    flush() {
      if (lines.length === 0) return;
      writeSync(1, lines.join('\n') + '\n');
      lines = [];
    },
  };
}
