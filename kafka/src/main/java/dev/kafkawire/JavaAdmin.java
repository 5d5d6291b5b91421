// Kafka's own Java Admin (kafka-clients) as the referee for kafka-wire's admin client: each JSON
// line on stdin names one call, and one JSON line on stdout answers it, in the shape the tests
// compare with kafka-wire's result (int64 as decimal strings, uuids as Kafka's base64url text).
//
//   java dev.kafkawire.JavaAdmin errors
//     prints every org.apache.kafka.common.protocol.Errors constant as {"code":N,"name":"..."}
//   java dev.kafkawire.JavaAdmin metadata-versions
//     prints every org.apache.kafka.server.common.MetadataVersion as {"level":N,"name":"4.4-IV2"}
//   java dev.kafkawire.JavaAdmin BOOTSTRAP [admin.property=value]...
//     stdin:  {"op":"describeTopics","topics":["t"]}         {"op":"listTopics","internal":true}
//             {"op":"describeConfigs","type":"TOPIC","name":"t"}  {"op":"listConfigResources","types":["CLIENT_METRICS"]}
//             {"op":"listOffsets","topic":"t","partition":0,"spec":"earliest|latest|maxTimestamp|N","isolation":"read_committed"}
//             {"op":"describeCluster"}  {"op":"describeFeatures"}  {"op":"listGroups"}
//             {"op":"describeConsumerGroups","groups":["g"]}  {"op":"listConsumerGroupOffsets","group":"g"}
//             {"op":"describeShareGroups","groups":["g"]}  {"op":"listShareGroupOffsets","group":"g"}
//             {"op":"describeAcls"}  {"op":"describeClientQuotas"}  {"op":"describeUserScramCredentials"}
//             {"op":"describeLogDirs","brokers":[1]}  {"op":"listPartitionReassignments"}
//             {"op":"describeDelegationTokens"}  {"op":"listTransactions"}  {"op":"describeTransactions","ids":["t"]}  {"op":"describeProducers","topic":"t","partition":0}
//     stdout: one line per call: its result, or {"error":"ExceptionClass: message"}
package dev.kafkawire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;

public final class JavaAdmin {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("errors")) {
      for (Errors e : Errors.values()) System.out.println("{\"code\":" + e.code() + ",\"name\":\"" + e.name() + "\"}");
      return;
    }
    if (args.length == 1 && args[0].equals("metadata-versions")) {
      // By reflection: kafka-server-common is on the run-time classpath (the broker's), not the compile one.
      Class<?> mv = Class.forName("org.apache.kafka.server.common.MetadataVersion");
      for (Object v : mv.getEnumConstants()) {
        System.out.println("{\"level\":" + mv.getMethod("featureLevel").invoke(v) + ",\"name\":\"" + mv.getMethod("version").invoke(v) + "\"}");
      }
      return;
    }
    if (args.length < 1) {
      System.err.println("usage: JavaAdmin errors | JavaAdmin BOOTSTRAP [property=value]...");
      System.exit(2);
    }
    Properties props = new Properties();
    props.put("bootstrap.servers", args[0]);
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) throw new IllegalArgumentException("not property=value: " + args[i]);
      props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    try (Admin admin = Admin.create(props);
         BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.isBlank()) continue;
        JsonNode call = JSON.readTree(line);
        Object out;
        try {
          out = call(admin, call);
        } catch (ExecutionException e) {
          out = JSON.createObjectNode().put("error", e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage());
        }
        System.out.println(JSON.writeValueAsString(out));
      }
    }
  }

  private static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : node) out.add(n.asText());
    return out;
  }

  private static ArrayNode ints(Collection<Node> nodes) {
    ArrayNode a = JSON.createArrayNode();
    for (Node n : nodes) a.add(n.id());
    return a;
  }

  private static ArrayNode ops(java.util.Set<AclOperation> ops) {
    ArrayNode a = JSON.createArrayNode();
    if (ops != null) ops.stream().map(AclOperation::name).sorted().forEach(a::add);
    return a;
  }

  private static Object call(Admin admin, JsonNode call) throws Exception {
    switch (call.get("op").asText()) {
      case "describeTopics": {
        Map<String, TopicDescription> all = admin.describeTopics(strings(call.get("topics")),
            new DescribeTopicsOptions().includeAuthorizedOperations(true)).allTopicNames().get();
        ArrayNode out = JSON.createArrayNode();
        for (String name : strings(call.get("topics"))) {
          TopicDescription d = all.get(name);
          ObjectNode t = out.addObject().put("name", d.name()).put("topicId", d.topicId().toString()).put("internal", d.isInternal());
          ArrayNode ps = t.putArray("partitions");
          for (TopicPartitionInfo p : d.partitions()) {
            ObjectNode o = ps.addObject().put("partition", p.partition()).put("leader", p.leader() == null ? -1 : p.leader().id());
            o.set("replicas", ints(p.replicas()));
            o.set("isr", ints(p.isr()));
            o.set("eligibleLeaderReplicas", ints(p.elr()));
            o.set("lastKnownElr", ints(p.lastKnownElr()));
          }
          t.set("authorizedOperations", ops(d.authorizedOperations()));
        }
        return out;
      }
      case "listTopics": {
        ArrayNode out = JSON.createArrayNode();
        admin.listTopics(new ListTopicsOptions().listInternal(call.path("internal").asBoolean(false))).names().get().stream().sorted().forEach(out::add);
        return out;
      }
      case "describeConfigs": {
        ConfigResource r = new ConfigResource(ConfigResource.Type.valueOf(call.get("type").asText()), call.get("name").asText());
        Config c = admin.describeConfigs(List.of(r), new org.apache.kafka.clients.admin.DescribeConfigsOptions().includeSynonyms(true)).all().get().get(r);
        ArrayNode out = JSON.createArrayNode();
        c.entries().stream().sorted((a, b) -> a.name().compareTo(b.name())).forEach(e -> {
          ObjectNode o = out.addObject().put("name", e.name()).put("value", e.value()).put("source", e.source().name())
              .put("isSensitive", e.isSensitive()).put("isReadOnly", e.isReadOnly()).put("isDefault", e.isDefault()).put("type", e.type().name());
          ArrayNode syn = o.putArray("synonyms");
          for (ConfigEntry.ConfigSynonym s : e.synonyms()) syn.addObject().put("name", s.name()).put("value", s.value()).put("source", s.source().name());
        });
        return out;
      }
      case "listConfigResources": {
        ArrayNode out = JSON.createArrayNode();
        java.util.Set<ConfigResource.Type> types = new java.util.HashSet<>();
        for (String t : strings(call.get("types"))) types.add(ConfigResource.Type.valueOf(t));
        admin.listConfigResources(types, new org.apache.kafka.clients.admin.ListConfigResourcesOptions()).all().get().stream()
            .sorted((a, b) -> a.name().compareTo(b.name())).forEach(r -> out.addObject().put("type", r.type().name()).put("name", r.name()));
        return out;
      }
      case "listShareGroupOffsets": {
        String group = call.get("group").asText();
        var offsets = admin.listShareGroupOffsets(Map.of(group, new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(group).get();
        ArrayNode out = JSON.createArrayNode();
        offsets.entrySet().stream().sorted((a, b) -> a.getKey().toString().compareTo(b.getKey().toString())).forEach(e -> {
          ObjectNode o = out.addObject().put("topic", e.getKey().topic()).put("partition", e.getKey().partition());
          if (e.getValue() == null) o.putNull("startOffset"); else o.put("startOffset", String.valueOf(e.getValue().startOffset())).put("lag", e.getValue().lag().map(String::valueOf).orElse(null));
        });
        return out;
      }
      case "describeShareGroups": {
        ArrayNode out = JSON.createArrayNode();
        var all = admin.describeShareGroups(strings(call.get("groups"))).all().get();
        for (String id : strings(call.get("groups"))) {
          var d = all.get(id);
          ObjectNode o = out.addObject().put("groupId", id).put("state", d.groupState().toString()).put("groupEpoch", d.groupEpoch())
              .put("assignmentEpoch", d.targetAssignmentEpoch()).put("coordinator", d.coordinator().id());
          ArrayNode ms = o.putArray("members");
          d.members().stream().sorted((a, b) -> a.consumerId().compareTo(b.consumerId())).forEach(m -> ms.addObject().put("memberId", m.consumerId()).put("clientId", m.clientId()));
        }
        return out;
      }
      case "listOffsets": {
        TopicPartition tp = new TopicPartition(call.get("topic").asText(), call.get("partition").asInt());
        String spec = call.get("spec").asText();
        OffsetSpec s = switch (spec) {
          case "earliest" -> OffsetSpec.earliest();
          case "latest" -> OffsetSpec.latest();
          case "maxTimestamp" -> OffsetSpec.maxTimestamp();
          default -> OffsetSpec.forTimestamp(Long.parseLong(spec));
        };
        IsolationLevel iso = call.path("isolation").asText("read_uncommitted").equals("read_committed") ? IsolationLevel.READ_COMMITTED : IsolationLevel.READ_UNCOMMITTED;
        ListOffsetsResult.ListOffsetsResultInfo info = admin.listOffsets(Map.of(tp, s), new ListOffsetsOptions(iso)).partitionResult(tp).get();
        return JSON.createObjectNode().put("offset", String.valueOf(info.offset())).put("timestamp", String.valueOf(info.timestamp()))
            .put("leaderEpoch", info.leaderEpoch().orElse(-1));
      }
      case "describeCluster": {
        var r = admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true));
        ObjectNode o = JSON.createObjectNode().put("clusterId", r.clusterId().get()).put("controller", r.controller().get().id());
        ArrayNode nodes = o.putArray("brokers");
        r.nodes().get().stream().sorted((a, b) -> a.id() - b.id()).forEach(n -> nodes.addObject().put("nodeId", n.id()).put("host", n.host()).put("port", n.port()).put("rack", n.rack()));
        o.set("authorizedOperations", ops(r.authorizedOperations().get()));
        return o;
      }
      case "describeFeatures": {
        FeatureMetadata f = admin.describeFeatures().featureMetadata().get();
        ObjectNode o = JSON.createObjectNode();
        ObjectNode fin = o.putObject("finalized");
        f.finalizedFeatures().forEach((k, v) -> fin.putObject(k).put("min", v.minVersionLevel()).put("max", v.maxVersionLevel()));
        ObjectNode sup = o.putObject("supported");
        f.supportedFeatures().forEach((k, v) -> sup.putObject(k).put("min", v.minVersion()).put("max", v.maxVersion()));
        o.put("finalizedEpoch", String.valueOf(f.finalizedFeaturesEpoch().orElse(-1L)));
        return o;
      }
      case "listGroups": {
        ArrayNode out = JSON.createArrayNode();
        List<GroupListing> gs = new ArrayList<>(admin.listGroups().all().get());
        gs.sort((a, b) -> a.groupId().compareTo(b.groupId()));
        for (GroupListing g : gs) out.addObject().put("groupId", g.groupId()).put("protocolType", g.protocol())
            .put("type", g.type().map(Object::toString).orElse(null)).put("state", g.groupState().map(Object::toString).orElse(null));
        return out;
      }
      case "describeConsumerGroups": {
        Map<String, ConsumerGroupDescription> all = admin.describeConsumerGroups(strings(call.get("groups"))).all().get();
        ArrayNode out = JSON.createArrayNode();
        for (String id : strings(call.get("groups"))) {
          ConsumerGroupDescription d = all.get(id);
          ObjectNode o = out.addObject().put("groupId", d.groupId()).put("state", d.groupState().toString()).put("type", d.type().toString())
              .put("assignor", d.partitionAssignor()).put("coordinator", d.coordinator().id());
          ArrayNode ms = o.putArray("members");
          for (MemberDescription m : d.members()) {
            ObjectNode mo = ms.addObject().put("memberId", m.consumerId()).put("clientId", m.clientId()).put("host", m.host());
            ArrayNode a = mo.putArray("assignment");
            m.assignment().topicPartitions().stream().sorted((x, y) -> x.toString().compareTo(y.toString())).forEach(tp -> a.add(tp.toString()));
          }
        }
        return out;
      }
      case "listConsumerGroupOffsets": {
        Map<TopicPartition, OffsetAndMetadata> m = admin.listConsumerGroupOffsets(call.get("group").asText()).partitionsToOffsetAndMetadata().get();
        ObjectNode o = JSON.createObjectNode();
        m.forEach((tp, om) -> o.put(tp.toString(), om == null ? null : String.valueOf(om.offset())));
        return o;
      }
      case "describeAcls": {
        ArrayNode out = JSON.createArrayNode();
        List<String> lines = new ArrayList<>();
        for (AclBinding b : admin.describeAcls(AclBindingFilter.ANY).values().get()) {
          lines.add(b.pattern().resourceType() + "|" + b.pattern().name() + "|" + b.pattern().patternType() + "|" + b.entry().principal()
              + "|" + b.entry().host() + "|" + b.entry().operation() + "|" + b.entry().permissionType());
        }
        lines.stream().sorted().forEach(out::add);
        return out;
      }
      case "describeClientQuotas": {
        ArrayNode out = JSON.createArrayNode();
        Map<ClientQuotaEntity, Map<String, Double>> m = admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get();
        m.forEach((entity, values) -> {
          ObjectNode o = out.addObject();
          o.set("entity", JSON.valueToTree(entity.entries()));
          o.set("values", JSON.valueToTree(values));
        });
        return out;
      }
      case "describeUserScramCredentials": {
        ArrayNode out = JSON.createArrayNode();
        Map<String, UserScramCredentialsDescription> m = admin.describeUserScramCredentials().all().get();
        m.keySet().stream().sorted().forEach(user -> {
          ObjectNode o = out.addObject().put("user", user);
          ArrayNode cs = o.putArray("credentials");
          m.get(user).credentialInfos().forEach(ci -> cs.addObject().put("mechanism", ci.mechanism().mechanismName()).put("iterations", ci.iterations()));
        });
        return out;
      }
      case "describeLogDirs": {
        List<Integer> brokers = new ArrayList<>();
        for (JsonNode n : call.get("brokers")) brokers.add(n.asInt());
        var all = admin.describeLogDirs(brokers).allDescriptions().get();
        ArrayNode out = JSON.createArrayNode();
        for (Integer b : brokers) {
          all.get(b).entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            ObjectNode o = out.addObject().put("broker", b).put("logDir", e.getKey())
                .put("error", e.getValue().error() == null ? null : Errors.forException(e.getValue().error()).name())
                .put("totalBytes", String.valueOf(e.getValue().totalBytes().orElse(-1L))).put("usableBytes", String.valueOf(e.getValue().usableBytes().orElse(-1L)));
            ArrayNode ps = o.putArray("partitions");
            e.getValue().replicaInfos().entrySet().stream().sorted((x, y) -> x.getKey().toString().compareTo(y.getKey().toString())).forEach(r -> ps.addObject()
                .put("topic", r.getKey().topic()).put("partition", r.getKey().partition()).put("size", String.valueOf(r.getValue().size()))
                .put("offsetLag", String.valueOf(r.getValue().offsetLag())).put("isFuture", r.getValue().isFuture()));
          });
        }
        return out;
      }
      case "describeDelegationTokens": {
        ArrayNode out = JSON.createArrayNode();
        admin.describeDelegationToken().delegationTokens().get().stream().sorted((x, y) -> x.tokenInfo().tokenId().compareTo(y.tokenInfo().tokenId())).forEach(t -> {
          ObjectNode o = out.addObject().put("tokenId", t.tokenInfo().tokenId()).put("owner", t.tokenInfo().owner().toString())
              .put("requester", t.tokenInfo().tokenRequester().toString()).put("expiryTimestampMs", String.valueOf(t.tokenInfo().expiryTimestamp()))
              .put("maxTimestampMs", String.valueOf(t.tokenInfo().maxTimestamp()));
          ArrayNode r = o.putArray("renewers");
          t.tokenInfo().renewers().forEach(p -> r.add(p.toString()));
        });
        return out;
      }
      case "listPartitionReassignments": {
        ArrayNode out = JSON.createArrayNode();
        admin.listPartitionReassignments().reassignments().get().entrySet().stream().sorted((x, y) -> x.getKey().toString().compareTo(y.getKey().toString())).forEach(e -> {
          ObjectNode o = out.addObject().put("topic", e.getKey().topic()).put("partition", e.getKey().partition());
          o.set("replicas", JSON.valueToTree(e.getValue().replicas()));
          o.set("addingReplicas", JSON.valueToTree(e.getValue().addingReplicas()));
          o.set("removingReplicas", JSON.valueToTree(e.getValue().removingReplicas()));
        });
        return out;
      }
      case "listTransactions": {
        ArrayNode out = JSON.createArrayNode();
        admin.listTransactions().all().get().stream().sorted((x, y) -> x.transactionalId().compareTo(y.transactionalId())).forEach(t -> out.addObject()
            .put("transactionalId", t.transactionalId()).put("producerId", String.valueOf(t.producerId())).put("state", t.state().toString()));
        return out;
      }
      case "describeTransactions": {
        var all = admin.describeTransactions(strings(call.get("ids"))).all().get();
        ArrayNode out = JSON.createArrayNode();
        for (String id : strings(call.get("ids"))) {
          var d = all.get(id);
          ObjectNode o = out.addObject().put("transactionalId", id).put("state", d.state().toString()).put("timeoutMs", d.transactionTimeoutMs())
              .put("producerId", String.valueOf(d.producerId())).put("producerEpoch", d.producerEpoch()).put("coordinator", d.coordinatorId());
          ArrayNode ps = o.putArray("partitions");
          d.topicPartitions().stream().map(Object::toString).sorted().forEach(ps::add);
        }
        return out;
      }
      case "describeProducers": {
        TopicPartition tp = new TopicPartition(call.get("topic").asText(), call.get("partition").asInt());
        ArrayNode out = JSON.createArrayNode();
        admin.describeProducers(List.of(tp)).partitionResult(tp).get().activeProducers().forEach(p -> out.addObject()
            .put("producerId", String.valueOf(p.producerId())).put("producerEpoch", p.producerEpoch()).put("lastSequence", p.lastSequence())
            .put("lastTimestamp", String.valueOf(p.lastTimestamp())).put("coordinatorEpoch", p.coordinatorEpoch().orElse(-1))
            .put("currentTxnStartOffset", String.valueOf(p.currentTransactionStartOffset().orElse(-1L))));
        return out;
      }
      default:
        throw new IllegalArgumentException("unknown op " + call.get("op"));
    }
  }
}
