// What a bundle for browsers and workerd gets in place of ./node.js (package.json's "browser"
// field maps one to the other, so no bundler meets node:net or node:tls): the same export, which
// refuses, typed, when a connection is opened with no `socket` connector where there is no TCP.
// Workers never reach it (the connection picks cloudflareConnector() there); pages pass
// webSocketConnector({ url }) to reach Kafka through `kafka-wire bridge`.
import { runtimeName, UnsupportedRuntimeError } from '../../errors.js';
import type { SocketConnector } from './socket.js';

export const nodeConnector: SocketConnector = async () => {
  throw new UnsupportedRuntimeError(runtimeName(), 'TCP sockets (node:net)',
    'pass ConnectOptions.socket: webSocketConnector({ url }) to reach Kafka through kafka-wire bridge, or cloudflareConnector() in workerd');
};
