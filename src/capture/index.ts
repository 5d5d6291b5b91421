// Reading Kafka traffic from captures (`kafka-wire/capture`): pcap and pcapng files, TCP
// reassembly, frames paired with their requests, JSON lines; and writing captures. No Node
// imports: browsers use it too.
export { CaptureFileReader, capturedPackets, MAX_CAPTURE_RECORD, type CapturedPacket } from './file.js';
export {
  tcpSegment, ipv6Text, type TcpSegment,
  LINKTYPE_NULL, LINKTYPE_ETHERNET, LINKTYPE_RAW, LINKTYPE_LOOP, LINKTYPE_LINUX_SLL, LINKTYPE_IPV4, LINKTYPE_IPV6, LINKTYPE_LINUX_SLL2,
} from './packet.js';
export { TcpDirection, MAX_HELD_BYTES, type StreamSink } from './tcp.js';
export {
  CaptureReader, readCapture, readCaptureStream, plausibleRequest, DEFAULT_KAFKA_PORT,
  type CaptureOptions, type CaptureEvent, type CaptureFrame, type CaptureNote, type CaptureStats, type NoteKind,
} from './reader.js';
export { captureFrameToJson, captureNoteToJson, formatCaptureTime, writeCaptureFrameLine, type CaptureJsonOptions } from './json.js';
export { JsonWriter } from '../json-writer.js';
export {
  CaptureFileWriter, TcpConversation, encodePacket, encodePacketHeaders, ipBytes,
  type CaptureFileOptions, type Endpoint, type Packet, type Segment,
} from './writer.js';
