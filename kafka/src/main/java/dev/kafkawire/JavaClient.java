// Kafka's own Java client as a peer for kafka-wire's tests and benchmarks: produces the records
// given as JSON lines on stdin, or consumes a topic to its end and prints its records as JSON lines.
// Bytes are lowercase hex (null stays null), so what is compared is exactly what was on the wire.
//
//   java dev.kafkawire.JavaClient produce BOOTSTRAP TOPIC [producer.property=value]...
//     stdin:  {"partition":0,"key":"6b","value":"76","headers":[{"key":"h","value":"01"}],"timestamp":1}
//             {"begin":true} / {"commit":true} / {"abort":true}   (with transactional.id=...)
//             {"fill":N,"partition":P,"valueSize":B}               (N generated records, for benchmarks, not listed)
//     stdout: {"partition":0,"offset":12} per record, in input order, once all are acknowledged
//   java dev.kafkawire.JavaClient consume BOOTSTRAP TOPIC [consumer.property=value]...
//     reads every partition from the beginning to its end (the last stable offset under
//     isolation.level=read_committed) and prints
//     {"partition","offset","timestamp","key","value","headers":[{"key","value"}]} per record.
//   java dev.kafkawire.JavaClient digest BOOTSTRAP TOPIC [consumer.property=value]...
//     reads as consume does, for values that are decimal record numbers (a bulk load's check),
//     and prints one line instead of a line per record:
//     {"records","distinct","duplicates","outOfOrder","notNumbers","min","max","partitions":{"P":count}}
//     (outOfOrder: records whose number is not above the one before it in their partition).
//   java dev.kafkawire.JavaClient share BOOTSTRAP TOPIC group.id=GROUP [consumer.property=value]...
//     a KafkaShareConsumer member of the share group (implicit acknowledgement) until stdin ends,
//     printing {"partition","offset","deliveryCount","value"} per record it is handed.
package dev.kafkawire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class JavaClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: JavaClient produce|consume BOOTSTRAP TOPIC [property=value]...");
      System.exit(2);
    }
    Properties props = new Properties();
    props.put("bootstrap.servers", args[1]);
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) throw new IllegalArgumentException("not property=value: " + args[i]);
      props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    switch (args[0]) {
      case "produce" -> produce(args[2], props);
      case "consume" -> consume(args[2], props);
      case "digest" -> digest(args[2], props);
      case "share" -> share(args[2], props);
      default -> throw new IllegalArgumentException("unknown command " + args[0]);
    }
  }

  private static byte[] bytes(JsonNode node) {
    return node == null || node.isNull() ? null : HEX.parseHex(node.asText());
  }

  private static String hex(byte[] bytes) {
    return bytes == null ? null : HEX.formatHex(bytes);
  }

  private static void produce(String topic, Properties props) throws Exception {
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(8 << 20));
    boolean transactional = props.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    AtomicReference<Exception> fillFailure = new AtomicReference<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props);
         BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      if (transactional) producer.initTransactions();
      for (String line; (line = in.readLine()) != null; ) {
        if (line.isBlank()) continue;
        JsonNode r = JSON.readTree(line);
        if (r.has("begin")) { producer.beginTransaction(); continue; }
        if (r.has("commit")) { producer.commitTransaction(); continue; }
        if (r.has("abort")) { producer.flush(); producer.abortTransaction(); continue; }
        Integer partition = r.hasNonNull("partition") ? r.get("partition").asInt() : null;
        if (r.has("fill")) {
          fill(producer, topic, partition, r.get("fill").asInt(), r.path("valueSize").asInt(100), fillFailure);
          continue;
        }
        Long timestamp = r.hasNonNull("timestamp") ? r.get("timestamp").asLong() : null;
        List<Header> headers = new ArrayList<>();
        for (JsonNode h : r.path("headers")) headers.add(new RecordHeader(h.get("key").asText(), bytes(h.get("value"))));
        sent.add(producer.send(new ProducerRecord<>(topic, partition, timestamp, bytes(r.get("key")), bytes(r.get("value")), headers)));
      }
      producer.flush();
    }
    if (fillFailure.get() != null) throw fillFailure.get();
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))) {
      for (Future<RecordMetadata> f : sent) {
        RecordMetadata m = f.get();
        out.write("{\"partition\":" + m.partition() + ",\"offset\":" + m.offset() + "}\n");
      }
    }
  }

  /**
   * N records of the benchmark's shape: key "key-I", a value of pseudo-random letters (a small
   * alphabet, so that the codecs have something to compress). Not listed on stdout; a failed send
   * fails the run once everything was flushed.
   */
  private static void fill(KafkaProducer<byte[], byte[]> producer, String topic, Integer partition, int count, int valueSize,
                           AtomicReference<Exception> failure) {
    Random random = new Random(42);
    for (int i = 0; i < count; i++) {
      byte[] value = new byte[valueSize];
      for (int j = 0; j < valueSize; j++) value[j] = (byte) ('a' + random.nextInt(16));
      producer.send(new ProducerRecord<>(topic, partition, ("key-" + i).getBytes(StandardCharsets.UTF_8), value),
          (metadata, exception) -> { if (exception != null) failure.compareAndSet(null, exception); });
    }
  }

  private static void share(String topic, Properties props) throws Exception {
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean(false);
    Thread stdin = new Thread(() -> {
      try { while (System.in.read() >= 0) { /* until the end */ } } catch (Exception e) { /* the end too */ }
      stop.set(true);
    });
    stdin.setDaemon(true);
    stdin.start();
    try (org.apache.kafka.clients.consumer.KafkaShareConsumer<byte[], byte[]> consumer = new org.apache.kafka.clients.consumer.KafkaShareConsumer<>(props);
         BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))) {
      consumer.subscribe(List.of(topic));
      while (!stop.get()) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          ObjectNode line = JSON.createObjectNode();
          line.put("partition", r.partition());
          line.put("offset", r.offset());
          line.put("deliveryCount", r.deliveryCount().map(Short::intValue).orElse(-1));
          line.put("value", r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8));
          out.write(JSON.writeValueAsString(line));
          out.write('\n');
        }
        out.flush();
      }
    }
  }

  private static void consume(String topic, Properties props) throws Exception {
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)) {
      readToEnd(topic, props, r -> {
        ObjectNode o = JSON.createObjectNode();
        o.put("partition", r.partition());
        o.put("offset", r.offset());
        o.put("timestamp", r.timestamp());
        o.put("key", hex(r.key()));
        o.put("value", hex(r.value()));
        ArrayNode headers = o.putArray("headers");
        for (Header h : r.headers()) headers.addObject().put("key", h.key()).put("value", hex(h.value()));
        try {
          out.write(JSON.writeValueAsString(o));
          out.write('\n');
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
    }
  }

  private static void digest(String topic, Properties props) throws Exception {
    java.util.BitSet seen = new java.util.BitSet();
    Map<Integer, Long> last = new java.util.TreeMap<>();
    Map<Integer, Long> counts = new java.util.TreeMap<>();
    long[] totals = new long[5]; // records, duplicates, outOfOrder, notNumbers, distinct
    long[] range = { Long.MAX_VALUE, Long.MIN_VALUE };
    readToEnd(topic, props, r -> {
      totals[0]++;
      counts.merge(r.partition(), 1L, Long::sum);
      long n = number(r.value());
      if (n < 0) { totals[3]++; return; }
      if (n <= last.getOrDefault(r.partition(), -1L)) totals[2]++;
      last.put(r.partition(), n);
      if (n > Integer.MAX_VALUE) { totals[3]++; return; }
      if (seen.get((int) n)) totals[1]++; else { seen.set((int) n); totals[4]++; }
      range[0] = Math.min(range[0], n);
      range[1] = Math.max(range[1], n);
    });
    ObjectNode o = JSON.createObjectNode();
    o.put("records", totals[0]).put("distinct", totals[4]).put("duplicates", totals[1]).put("outOfOrder", totals[2]).put("notNumbers", totals[3]);
    o.put("min", totals[4] == 0 ? -1 : range[0]).put("max", totals[4] == 0 ? -1 : range[1]);
    ObjectNode parts = o.putObject("partitions");
    counts.forEach((p, c) -> parts.put(String.valueOf(p), c));
    System.out.println(JSON.writeValueAsString(o));
  }

  /** A value's decimal digits as a number; -1 when it is null, empty, not all digits, or too long. */
  private static long number(byte[] value) {
    if (value == null || value.length == 0 || value.length > 18) return -1;
    long n = 0;
    for (byte b : value) {
      if (b < '0' || b > '9') return -1;
      n = n * 10 + (b - '0');
    }
    return n;
  }

  /** Every partition of the topic from the beginning to its end offset (the last stable one under read_committed), record by record. */
  private static void readToEnd(String topic, Properties props, java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) throws Exception {
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(4 << 20));
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      // endOffsets follows isolation.level: the high watermark, or the last stable offset.
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) throw new IllegalStateException("did not reach the end offsets " + end);
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) each.accept(r);
      }
    }
  }
}
