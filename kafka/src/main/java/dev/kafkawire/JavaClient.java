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

  private static void consume(String topic, Properties props) throws Exception {
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(4 << 20));
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
         BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      // endOffsets follows isolation.level: the high watermark, or the last stable offset.
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) throw new IllegalStateException("did not reach the end offsets " + end);
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          ObjectNode o = JSON.createObjectNode();
          o.put("partition", r.partition());
          o.put("offset", r.offset());
          o.put("timestamp", r.timestamp());
          o.put("key", hex(r.key()));
          o.put("value", hex(r.value()));
          ArrayNode headers = o.putArray("headers");
          for (Header h : r.headers()) headers.addObject().put("key", h.key()).put("value", hex(h.value()));
          out.write(JSON.writeValueAsString(o));
          out.write('\n');
        }
      }
    }
  }
}
