// Which request or response header a message travels with. The built-in headers unless a
// catalogue with headers of its own claimed the message; the codec's plans ask here, so a
// run-time header reaches every encode, decode and explain of that catalogue's messages.
import { requestHeader, responseHeader } from '../generated/headers.js';
import type { MessageDef } from './schema.js';

const claimed = new WeakMap<MessageDef, MessageDef>();

/** The header `message` travels with (a request's RequestHeader, a response's ResponseHeader). */
export function headerFor(message: MessageDef): MessageDef {
  return claimed.get(message) ?? (message.type === 'request' ? requestHeader : responseHeader);
}

/**
 * `message` travelling with `header`: itself when it already does, else a shallow copy bound to
 * `header` (a copy, because plans are cached per message and others may use the original).
 */
export function withHeader<M extends MessageDef>(message: M, header: MessageDef): M {
  if (headerFor(message) === header) return message;
  const copy = { ...message };
  claimed.set(copy, header);
  return copy;
}

export { requestHeader as builtInRequestHeader, responseHeader as builtInResponseHeader };
