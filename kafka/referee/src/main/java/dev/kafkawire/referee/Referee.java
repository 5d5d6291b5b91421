// Kafka's own codec as a referee for kafka-wire's: a long-running process that reads one JSON
// request a line on stdin and answers one JSON line on stdout, using only kafka-clients' generated
// message classes (ApiMessageType, the *Data classes, their *DataJsonConverters, ByteBufferAccessor,
// ObjectSerializationCache). One JVM serves thousands of messages, since a JVM starts slowly.
//
// Requests ("id" is echoed back; numbers in answers are written as strings; "dir" is "request" or "response"; bytes are message bodies, no
// size prefix and no header):
//   {"id":1,"op":"versions"}
//       -> {"id":1,"ok":true,"apis":[{"key":0,"name":"Produce","request":[lo,hi],"response":[lo,hi],
//           "stableHighest":hi or hi-1 when the release marks its latest version unstable,
//           "requestHeader":[header version of lo, ..., of hi],"responseHeader":[...]},...]}
//   {"id":2,"op":"decode","key":K,"version":V,"dir":D,"hex":"..."}
//       -> {"id":2,"ok":true,"json":{...},"hex":"..."}   the body read by Kafka's class as Kafka's
//          JSON converter writes it, and Kafka's own encoding of what it read
//   {"id":3,"op":"encode","key":K,"version":V,"dir":D,"json":{...}}
//       -> {"id":3,"ok":true,"hex":"...","json":{...}}   the body Kafka's JSON converter reads from
//          that JSON, encoded by Kafka, and written back as JSON
//   in decode and encode, "header":"RequestHeader" or "ResponseHeader" in place of "key" and "dir"
//       names a header message (its version is the header version)
//   anything that fails -> {"id":N,"ok":false,"error":"ExceptionClass: message"}
//
// Two additions to Kafka's JSON form, made by walking the *Data object beside its JSON after the
// converter writes (the generated Java fields are named as the JSON keys):
//   - records fields carry their raw bytes in base64: the converters write an empty binary node for
//     any non-null records even when asked to serialize records (they read base64 as given);
//   - the converters drop unknown tagged fields, which the *Data objects keep; every struct that has
//     some carries them as "_unknownTaggedFields": {tag: base64}, applied again after a read.
//
// The generated API differs little between kafka-clients 3.9 and 4.x, and one source builds against
// both: the converters are reached by reflection (their class is named after the message), and so
// are the records classes, which 4.4 moved from org.apache.kafka.common.record to its .internal
// package.
package dev.kafkawire.referee;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.types.RawTaggedField;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

public final class Referee {
    private static final String UNKNOWN_TAGS = "_unknownTaggedFields";

    // NaN and the infinities reach float64 fields as the bare tokens Jackson allows on request. On
    // the way out every number is written as a string, so JavaScript's JSON.parse keeps int64s whole
    // (the caller reads each value by its schema type anyway).
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .enable(JsonWriteFeature.WRITE_NUMBERS_AS_STRINGS)
        .build();

    /** The JSON converter of one *Data class: its static read(JsonNode, short) and write(Data, short, boolean). */
    private record Converter(Method read, Method write) { }

    private static final Map<String, Converter> CONVERTERS = new HashMap<>();

    /** BaseRecords, the type of records fields, where this release keeps it. */
    private static final Class<?> BASE_RECORDS = firstClass(
        "org.apache.kafka.common.record.internal.BaseRecords", // 4.4
        "org.apache.kafka.common.record.BaseRecords");         // 3.9, 4.0

    private static Class<?> firstClass(String... names) {
        for (String name : names) {
            try {
                return Class.forName(name);
            } catch (ClassNotFoundException e) {
                // try the next
            }
        }
        throw new IllegalStateException("none of " + String.join(", ", names) + " is on the classpath");
    }

    private static final Map<Class<?>, List<Field>> MESSAGE_FIELDS = new HashMap<>();

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            ObjectNode reply = JsonNodeFactory.instance.objectNode();
            try {
                JsonNode request = MAPPER.readTree(line);
                reply.set("id", request.get("id"));
                answer(request, reply);
                reply.put("ok", true);
            } catch (Throwable t) {
                Throwable cause = t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t;
                reply.put("ok", false);
                reply.put("error", cause.getClass().getSimpleName() + ": " + cause.getMessage());
            }
            out.write(MAPPER.writeValueAsString(reply));
            out.write('\n');
            // Answer at once when no further request is already waiting, so callers may go one at a time.
            if (!in.ready()) out.flush();
        }
        out.flush();
    }

    private static void answer(JsonNode request, ObjectNode reply) throws Exception {
        String op = request.get("op").asText();
        if (op.equals("versions")) {
            reply.set("apis", versions());
            return;
        }
        short version = (short) request.get("version").asInt();
        Message message = request.has("header")
            ? newHeader(request.get("header").asText())
            : newMessage((short) request.get("key").asInt(), request.get("dir").asText().equals("request"));
        Converter converter = converterOf(message);
        switch (op) {
            case "decode": {
                ByteBuffer buffer = ByteBuffer.wrap(hexToBytes(request.get("hex").asText()));
                message.read(new ByteBufferAccessor(buffer), version);
                if (buffer.hasRemaining()) {
                    throw new IllegalStateException(buffer.remaining() + " bytes left over after the body");
                }
                reply.set("json", toJson(converter, message, version));
                reply.put("hex", bytesToHex(encode(message, version)));
                return;
            }
            case "encode": {
                JsonNode json = request.get("json");
                Message read = (Message) converter.read.invoke(null, json, version);
                applyUnknownTags(read, json);
                reply.put("hex", bytesToHex(encode(read, version)));
                reply.set("json", toJson(converter, read, version));
                return;
            }
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }

    private static ArrayNode versions() {
        ArrayNode apis = JsonNodeFactory.instance.arrayNode();
        for (ApiMessageType type : ApiMessageType.values()) {
            Message request;
            Message response;
            try {
                request = type.newRequest();
                response = type.newResponse();
            } catch (RuntimeException e) {
                continue; // a key kept in the enum after Kafka removed its messages (4.x: 4, 5, 6, 7)
            }
            ObjectNode api = apis.addObject();
            api.put("key", type.apiKey());
            api.put("name", type.name());
            api.set("request", range(request));
            api.set("response", range(response));
            api.put("stableHighest", type.highestSupportedVersion(false));
            ArrayNode requestHeaders = api.putArray("requestHeader");
            for (short v = request.lowestSupportedVersion(); v <= request.highestSupportedVersion(); v++) {
                requestHeaders.add(type.requestHeaderVersion(v));
            }
            ArrayNode responseHeaders = api.putArray("responseHeader");
            for (short v = response.lowestSupportedVersion(); v <= response.highestSupportedVersion(); v++) {
                responseHeaders.add(type.responseHeaderVersion(v));
            }
        }
        return apis;
    }

    private static ArrayNode range(Message message) {
        ArrayNode range = JsonNodeFactory.instance.arrayNode();
        range.add(message.lowestSupportedVersion());
        range.add(message.highestSupportedVersion());
        return range;
    }

    private static ApiMessage newMessage(short key, boolean isRequest) {
        ApiMessageType type = ApiMessageType.fromApiKey(key);
        return isRequest ? type.newRequest() : type.newResponse();
    }

    /** RequestHeaderData or ResponseHeaderData, by the header's schema name. */
    private static Message newHeader(String name) throws Exception {
        if (!name.equals("RequestHeader") && !name.equals("ResponseHeader")) throw new IllegalArgumentException("no header " + name);
        return (Message) Class.forName("org.apache.kafka.common.message." + name + "Data").getConstructor().newInstance();
    }

    private static Converter converterOf(Message message) throws Exception {
        Class<?> data = message.getClass();
        Converter converter = CONVERTERS.get(data.getName());
        if (converter == null) {
            Class<?> json = Class.forName(data.getName() + "JsonConverter");
            converter = new Converter(
                json.getMethod("read", JsonNode.class, short.class),
                json.getMethod("write", data, short.class, boolean.class));
            CONVERTERS.put(data.getName(), converter);
        }
        return converter;
    }

    /** Kafka's size, then its writer, into a buffer of exactly that size (the writer must fill it). */
    private static byte[] encode(Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = message.size(cache, version);
        ByteBuffer buffer = ByteBuffer.allocate(size);
        message.write(new ByteBufferAccessor(buffer), cache, version);
        if (buffer.hasRemaining()) {
            throw new IllegalStateException("size said " + size + " bytes but the writer wrote " + buffer.position());
        }
        return buffer.array();
    }

    private static JsonNode toJson(Converter converter, Message message, short version) throws Exception {
        JsonNode json = (JsonNode) converter.write.invoke(null, message, version, true);
        addUnknownTags(message, json);
        return json;
    }

    // --- unknown tagged fields, beside the converter -------------------------------------------

    /** The instance fields of a *Data class that may hold nested messages (structs or their collections) or records. */
    private static List<Field> messageFields(Class<?> type) {
        List<Field> fields = MESSAGE_FIELDS.get(type);
        if (fields == null) {
            fields = new ArrayList<>();
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) continue;
                Class<?> t = f.getType();
                if (Message.class.isAssignableFrom(t) || Collection.class.isAssignableFrom(t) || BASE_RECORDS.isAssignableFrom(t)) {
                    f.setAccessible(true);
                    fields.add(f);
                }
            }
            MESSAGE_FIELDS.put(type, fields);
        }
        return fields;
    }

    /** Calls `visit` for every nested message of `message` with the JSON node of the same place. */
    private interface Visit { void at(Message nested, JsonNode json) throws Exception; }

    /** Calls `visit` for every records field of `message` that is not null. */
    private interface VisitRecords { void at(Object records, ObjectNode json, String name) throws Exception; }

    private static final VisitRecords NO_RECORDS = (records, json, name) -> { };

    private static void eachNested(Message message, JsonNode json, Visit visit) throws Exception {
        eachNested(message, json, visit, NO_RECORDS);
    }

    private static void eachNested(Message message, JsonNode json, Visit visit, VisitRecords records) throws Exception {
        for (Field f : messageFields(message.getClass())) {
            Object value = f.get(message);
            JsonNode node = json.get(f.getName());
            if (value == null || node == null) continue;
            if (BASE_RECORDS.isInstance(value)) {
                records.at(value, (ObjectNode) json, f.getName());
            } else if (value instanceof Message && node.isObject()) {
                visit.at((Message) value, node);
            } else if (value instanceof Collection && node.isArray()) {
                Iterator<?> items = ((Collection<?>) value).iterator();
                for (JsonNode item : node) {
                    if (!items.hasNext()) break;
                    Object element = items.next();
                    if (element instanceof Message && item.isObject()) visit.at((Message) element, item);
                }
            }
        }
    }

    private static void addUnknownTags(Message message, JsonNode json) throws Exception {
        List<RawTaggedField> unknown = message.unknownTaggedFields();
        if (unknown != null && !unknown.isEmpty()) {
            ObjectNode tags = ((ObjectNode) json).putObject(UNKNOWN_TAGS);
            for (RawTaggedField field : unknown) {
                tags.put(Integer.toString(field.tag()), Base64.getEncoder().encodeToString(field.data()));
            }
        }
        eachNested(message, json, Referee::addUnknownTags, Referee::addRecords);
    }

    /** Puts a records field's bytes into its JSON: what was read is a MemoryRecords, whose buffer() holds them. */
    private static void addRecords(Object records, ObjectNode json, String name) throws Exception {
        Method buffer = records.getClass().getMethod("buffer");
        json.put(name, bytesOf((ByteBuffer) buffer.invoke(records)));
    }

    private static byte[] bytesOf(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static void applyUnknownTags(Message message, JsonNode json) throws Exception {
        JsonNode tags = json.get(UNKNOWN_TAGS);
        if (tags != null) {
            Iterator<Map.Entry<String, JsonNode>> entries = tags.fields();
            while (entries.hasNext()) {
                Map.Entry<String, JsonNode> entry = entries.next();
                message.unknownTaggedFields().add(
                    new RawTaggedField(Integer.parseInt(entry.getKey()), Base64.getDecoder().decode(entry.getValue().asText())));
            }
        }
        eachNested(message, json, Referee::applyUnknownTags);
    }

    // --- hex --------------------------------------------------------------------------------------

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static String bytesToHex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 15];
            out[2 * i + 1] = HEX[bytes[i] & 15];
        }
        return new String(out);
    }

    private static byte[] hexToBytes(String hex) {
        if (hex.length() % 2 != 0) throw new IllegalArgumentException("odd hex length");
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
