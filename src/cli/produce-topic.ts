// The topic a produce writes to, and what to say when it does not exist: with auto-creation the
// broker creates it on the metadata request that asks for it, and a user who mistyped the name
// should learn that from us (stderr), not from a new empty topic; --no-create refuses instead.
// A small function of its own so that every produce command calls the same check.
import { KafkaErrorCode } from '../wire/errors.js';
import type { KafkaClient, TopicInfo } from '../wire/client.js';

/** The --no-create option's help. */
export const NO_CREATE_HELP = 'refuse to produce to a topic that does not exist (else the broker may create it, and we say so)';

/**
 * The topic's metadata for producing. A topic that exists is returned as it is. One that does
 * not: with `create` false, an Error saying so; else it is asked for with auto-creation, and
 * `note` gets one line saying the broker created it (with its partitions), or an Error says the
 * broker does not create topics.
 */
export async function topicForProduce(client: KafkaClient, topic: string,
  options: { create: boolean; note: (line: string) => void }): Promise<TopicInfo> {
  const md = await client.metadata([topic], false);
  const found = md.topics.find((t) => t.name === topic);
  if (found !== undefined && found.errorCode !== KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
    return client.topic(topic);
  }
  if (!options.create) throw new Error(`topic ${topic} does not exist (and --no-create says not to create it)`);
  let info: TopicInfo;
  try {
    info = await client.topic(topic, { allowAutoTopicCreation: true });
  } catch (error) {
    if (/UNKNOWN_TOPIC_OR_PARTITION/.test((error as Error).message)) {
      throw new Error(`topic ${topic} does not exist, and the broker does not create topics on request (auto.create.topics.enable=false): create it first`);
    }
    throw error;
  }
  const n = info.partitions.length;
  options.note(`topic ${topic} did not exist: the broker created it, with ${n} partition${n === 1 ? '' : 's'} (--no-create refuses instead)`);
  return info;
}
