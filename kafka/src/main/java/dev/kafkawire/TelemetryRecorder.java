// A broker plugin for the KIP-714 tests: a metrics reporter that is the broker's client telemetry
// receiver (ClientTelemetry / ClientTelemetryReceiver), writing every PushTelemetry it is given
// as one JSON line to the file named by the broker setting kafkawire.telemetry.file:
//   {"clientId":"...","clientInstanceId":"...","terminating":false,"contentType":"...",
//    "metrics":[{"name":"org.apache.kafka.producer.record.send.total","kind":"sum","points":[{"attributes":{"client_id":"..."},"value":5.0}]},...]}
// The payload is parsed with the OpenTelemetry protobuf classes kafka-clients ships (shaded), so
// what is recorded is what a real OTLP reader makes of the client's bytes.
// Broker settings: metric.reporters=dev.kafkawire.TelemetryRecorder, kafkawire.telemetry.file=PATH.
package dev.kafkawire;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.telemetry.ClientTelemetry;
import org.apache.kafka.server.telemetry.ClientTelemetryPayload;
import org.apache.kafka.server.telemetry.ClientTelemetryReceiver;
import org.apache.kafka.shaded.io.opentelemetry.proto.common.v1.KeyValue;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.Metric;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.MetricsData;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ScopeMetrics;

public final class TelemetryRecorder implements MetricsReporter, ClientTelemetry, ClientTelemetryReceiver {
  private static final ObjectMapper JSON = new ObjectMapper();
  private String file;

  @Override public void configure(Map<String, ?> configs) {
    Object f = configs.get("kafkawire.telemetry.file");
    file = f == null ? null : f.toString();
  }

  @Override public void init(List<KafkaMetric> metrics) {}
  @Override public void metricChange(KafkaMetric metric) {}
  @Override public void metricRemoval(KafkaMetric metric) {}
  @Override public void close() {}

  @Override public ClientTelemetryReceiver clientReceiver() { return this; }

  @Override public synchronized void exportMetrics(AuthorizableRequestContext context, ClientTelemetryPayload payload) {
    if (file == null) return;
    ObjectNode line = JSON.createObjectNode();
    line.put("clientId", context.clientId());
    line.put("clientInstanceId", payload.clientInstanceId().toString());
    line.put("terminating", payload.isTerminating());
    line.put("contentType", payload.contentType());
    ArrayNode out = line.putArray("metrics");
    try {
      ByteBuffer data = payload.data().duplicate();
      byte[] bytes = new byte[data.remaining()];
      data.get(bytes);
      MetricsData parsed = MetricsData.parseFrom(bytes);
      for (ResourceMetrics rm : parsed.getResourceMetricsList()) {
        for (ScopeMetrics sm : rm.getScopeMetricsList()) {
          for (Metric m : sm.getMetricsList()) {
            ObjectNode o = out.addObject();
            o.put("name", m.getName());
            List<NumberDataPoint> points;
            if (m.hasSum()) {
              o.put("kind", "sum");
              o.put("temporality", m.getSum().getAggregationTemporality().name());
              o.put("monotonic", m.getSum().getIsMonotonic());
              points = m.getSum().getDataPointsList();
            } else if (m.hasGauge()) {
              o.put("kind", "gauge");
              points = m.getGauge().getDataPointsList();
            } else {
              o.put("kind", "other");
              points = List.of();
            }
            ArrayNode ps = o.putArray("points");
            for (NumberDataPoint p : points) {
              ObjectNode po = ps.addObject();
              ObjectNode attrs = po.putObject("attributes");
              for (KeyValue kv : p.getAttributesList()) attrs.put(kv.getKey(), kv.getValue().getStringValue());
              po.put("value", p.hasAsDouble() ? p.getAsDouble() : (double) p.getAsInt());
              po.put("timeUnixNano", String.valueOf(p.getTimeUnixNano()));
            }
          }
        }
      }
    } catch (Exception e) {
      line.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    try (FileWriter w = new FileWriter(file, StandardCharsets.UTF_8, true)) {
      w.write(JSON.writeValueAsString(line) + "\n");
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }
}
