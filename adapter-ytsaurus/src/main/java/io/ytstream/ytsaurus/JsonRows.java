package io.ytstream.ytsaurus;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.ytstream.ports.Row;
import io.ytstream.types.v3.YtDecimal;
import io.ytstream.types.v3.YtDict;
import io.ytstream.types.v3.YtList;
import io.ytstream.types.v3.YtMember;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtStruct;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtTuple;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.v3.YtVariantStruct;
import io.ytstream.types.v3.YtVariantTuple;
import io.ytstream.types.value.YtValues;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows as tabular JSON, one object per line ({@code yt/yt/server/http_proxy/formats.cpp}), each
 * column encoded as its type_v3 type requires. Sources, all under {@code ytsaurus/ytsaurus}:
 *
 * <ul>
 *   <li>{@code yt/docs/en/_includes/user-guide/storage/formats.md}, JSON: {@code encode_utf8=%true}
 *       maps each byte of a YSON string to one code point U+0000..U+00FF (and back), which is the
 *       only JSON form that carries any bytes; with {@code %false} strings must be UTF-8 ("not all
 *       YSON strings are readable"). Rows therefore travel with {@code encode_utf8=%true} ({@link
 *       #INPUT_FORMAT}); column names and map keys are transcoded the same way. Attributes are
 *       {@code {"$attributes":..,"$value":..}}; {@code stringify_nan_and_infinity} makes the server
 *       write NaN and infinities as {@code "nan"}, {@code "inf"}, {@code "-inf"} ({@code
 *       yt/yt/core/json/json_writer.cpp}; without it they are an error).
 *   <li>{@code yt/yt/core/json/json_callbacks.cpp}: on input {@code {"$type":"double","$value":
 *       "nan"}} is a double and {@code {"$type":"uint64","$value":"5"}} a uint64; a key (a column
 *       name too) that starts with {@code $} is sent with one more {@code $}, since the reader
 *       refuses a single one ({@code ConsumeMapFragment}), and {@code json_writer.cpp} returns it
 *       so.
 *   <li>{@code yt/docs/en/_includes/user-guide/storage/data-types.md} ("Representing compound types
 *       in formats", default modes): optional of a non-optional is the value or null, of an
 *       optional {@code [v]}; list and tuple arrays; struct an object (named mode; a positional
 *       array is read too); dict an array of {@code [key, value]}; variant {@code [index, v]} or
 *       {@code ["name", v]}; tagged its item; decimal its binary string (4/8/16/32 bytes big-endian
 *       two's complement, top bit inverted); dates, datetimes, timestamps and intervals integers;
 *       uuid its 16 bytes; uint64 an unsigned number.
 * </ul>
 *
 * <p>Numbers never go through {@code double} (integers as longs or from their text): int64 and
 * uint64 keep all 64 bits (a uint64 is a {@code Long} holding the bits), and {@code -0.0} keeps its
 * sign. Values are checked and put in canonical form by {@link YtValues} before they are sent;
 * columns without a known type (system columns, untyped projections) are written and read as plain
 * YSON values.
 */
final class JsonRows implements RowFormat {

  /**
   * Rows sent: {@code encode_utf8=true}, the one JSON form that carries any bytes (formats.md,
   * JSON).
   */
  static final String INPUT_FORMAT = "{\"$value\":\"json\",\"$attributes\":{\"encode_utf8\":true}}";

  /** Rows received: as sent, and NaN/infinities as strings ({@code stringify_nan_and_infinity}). */
  static final String OUTPUT_FORMAT =
      "{\"$value\":\"json\",\"$attributes\":{\"encode_utf8\":true,"
          + "\"stringify_nan_and_infinity\":true}}";

  private static final JsonFactory FACTORY = new JsonFactory();
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  /** A JSON number kept as its text. */
  private record RawNumber(String text, boolean integral) {}

  /** A JSON string before transcoding: the code points as the JSON text gives them. */
  private record RawString(String text) {}

  JsonRows() {}

  @Override
  public String inputFormat() {
    return INPUT_FORMAT;
  }

  @Override
  public String outputFormat() {
    return OUTPUT_FORMAT;
  }

  @Override
  public String describe() {
    return "<encode_utf8=%true>json";
  }

  // ---- encoding ----

  @Override
  public byte[] encode(List<Row> rows, Map<String, YtType> types) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      for (Row row : rows) {
        try (JsonGenerator gen = FACTORY.createGenerator(out)) {
          gen.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
          gen.writeStartObject();
          for (Map.Entry<String, Object> e : row.asMap().entrySet()) {
            String column = e.getKey();
            gen.writeFieldName(escapedKey(column));
            YtType type = types.get(column);
            Object value = e.getValue();
            if (type == null || value == null) {
              writeYson(gen, value, column);
            } else {
              write(gen, type, YtValues.normalize(type, value, "column \"" + column + "\""));
            }
          }
          gen.writeEndObject();
        }
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static String bytesAsJson(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  private static String textAsJson(String text) {
    return bytesAsJson(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String escapedKey(String key) {
    return textAsJson(key.startsWith("$") ? "$" + key : key);
  }

  private static void write(JsonGenerator gen, YtType type, Object value) throws IOException {
    if (value == null) {
      gen.writeNull();
      return;
    }
    if (type instanceof YtTagged t) {
      write(gen, t.item(), value);
    } else if (type instanceof YtOptional o) {
      if (o.item().isNullable()) {
        gen.writeStartArray();
        write(gen, o.item(), ((List<?>) value).get(0));
        gen.writeEndArray();
      } else {
        write(gen, o.item(), value);
      }
    } else if (type instanceof YtPrimitive p) {
      writePrimitive(gen, p, value);
    } else if (type instanceof YtDecimal d) {
      gen.writeString(bytesAsJson(decimalBytes(d, (BigDecimal) value)));
    } else if (type instanceof YtList l) {
      gen.writeStartArray();
      for (Object item : (List<?>) value) {
        write(gen, l.item(), item);
      }
      gen.writeEndArray();
    } else if (type instanceof YtTuple t) {
      gen.writeStartArray();
      List<?> items = (List<?>) value;
      for (int i = 0; i < items.size(); i++) {
        write(gen, t.elements().get(i), items.get(i));
      }
      gen.writeEndArray();
    } else if (type instanceof YtStruct s) {
      gen.writeStartObject();
      Map<?, ?> map = (Map<?, ?>) value;
      for (YtMember m : s.members()) {
        gen.writeFieldName(escapedKey(m.name()));
        write(gen, m.type(), map.get(m.name()));
      }
      gen.writeEndObject();
    } else if (type instanceof YtDict d) {
      gen.writeStartArray();
      for (Object entry : (List<?>) value) {
        List<?> pair = (List<?>) entry;
        gen.writeStartArray();
        write(gen, d.key(), pair.get(0));
        write(gen, d.value(), pair.get(1));
        gen.writeEndArray();
      }
      gen.writeEndArray();
    } else if (type instanceof YtVariantTuple v) {
      List<?> pair = (List<?>) value;
      long index = (Long) pair.get(0);
      gen.writeStartArray();
      gen.writeNumber(index);
      write(gen, v.elements().get((int) index), pair.get(1));
      gen.writeEndArray();
    } else if (type instanceof YtVariantStruct v) {
      List<?> pair = (List<?>) value;
      String name = (String) pair.get(0);
      gen.writeStartArray();
      gen.writeString(textAsJson(name));
      for (YtMember m : v.members()) {
        if (m.name().equals(name)) {
          write(gen, m.type(), pair.get(1));
        }
      }
      gen.writeEndArray();
    } else {
      throw new IllegalArgumentException("unsupported type " + type.describe());
    }
  }

  private static void writePrimitive(JsonGenerator gen, YtPrimitive type, Object value)
      throws IOException {
    switch (type) {
      case UINT64 -> gen.writeNumber(Long.toUnsignedString((Long) value));
      case FLOAT, DOUBLE -> writeDouble(gen, (Double) value);
      case STRING, UTF8, JSON, UUID -> gen.writeString(bytesAsJson(stringBytes(value)));
      case YSON -> writeYson(gen, value, "yson");
      default -> writeYson(gen, value, type.v3Name());
    }
  }

  private static byte[] stringBytes(Object value) {
    return value instanceof byte[] b ? b : ((String) value).getBytes(StandardCharsets.UTF_8);
  }

  private static void writeDouble(JsonGenerator gen, double value) throws IOException {
    if (Double.isFinite(value)) {
      gen.writeNumber(value);
      return;
    }
    // JSON has no literal for these; the server's JSON parser converts a typed string.
    gen.writeStartObject();
    gen.writeStringField("$type", "double");
    gen.writeStringField("$value", Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf");
    gen.writeEndObject();
  }

  /** A plain YSON value (the Yson model) as JSON. */
  private static void writeYson(JsonGenerator gen, Object value, String where) throws IOException {
    if (value == null) {
      gen.writeNull();
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      gen.writeNumber(((Number) value).longValue());
    } else if (value instanceof YsonUint64 u) {
      // Typed, so a small uint64 stays a uint64 (json_callbacks.cpp reads "$type").
      gen.writeStartObject();
      gen.writeStringField("$type", "uint64");
      gen.writeStringField("$value", u.toString());
      gen.writeEndObject();
    } else if (value instanceof Double d) {
      writeDouble(gen, d);
    } else if (value instanceof Float f) {
      writeDouble(gen, f.doubleValue());
    } else if (value instanceof Boolean b) {
      gen.writeBoolean(b);
    } else if (value instanceof String || value instanceof byte[]) {
      gen.writeString(bytesAsJson(stringBytes(value)));
    } else if (value instanceof List<?> list) {
      gen.writeStartArray();
      for (Object item : list) {
        writeYson(gen, item, where);
      }
      gen.writeEndArray();
    } else if (value instanceof Map<?, ?> map) {
      gen.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        gen.writeFieldName(escapedKey(String.valueOf(e.getKey())));
        writeYson(gen, e.getValue(), where);
      }
      gen.writeEndObject();
    } else if (value instanceof YsonAttributed a) {
      gen.writeStartObject();
      gen.writeFieldName("$attributes");
      writeYson(gen, a.attributes(), where);
      gen.writeFieldName("$value");
      writeYson(gen, a.value(), where);
      gen.writeEndObject();
    } else {
      throw new IllegalArgumentException(
          where + ": unsupported value type " + value.getClass().getName());
    }
  }

  /** data-types.md, "Description of binary representation" of decimal. */
  static byte[] decimalBytes(YtDecimal type, BigDecimal value) {
    int width = decimalWidth(type.precision());
    BigInteger unscaled = value.setScale(type.scale()).unscaledValue();
    byte[] twos = unscaled.toByteArray();
    byte[] out = new byte[width];
    byte fill = unscaled.signum() < 0 ? (byte) 0xff : 0;
    for (int i = 0; i < width; i++) {
      int from = twos.length - width + i;
      out[i] = from < 0 ? fill : twos[from];
    }
    out[0] = (byte) (out[0] ^ 0x80);
    return out;
  }

  static BigDecimal decimalValue(YtDecimal type, byte[] bytes) {
    int width = decimalWidth(type.precision());
    if (bytes.length != width) {
      throw new YtTransportException(
          type.describe() + " arrived as " + bytes.length + " bytes, not " + width, null);
    }
    byte[] copy = bytes.clone();
    copy[0] = (byte) (copy[0] ^ 0x80);
    BigInteger unscaled = new BigInteger(copy);
    BigInteger intMax = BigInteger.ONE.shiftLeft(width * 8 - 1).subtract(BigInteger.ONE);
    if (unscaled.equals(intMax)
        || unscaled.equals(intMax.subtract(BigInteger.ONE))
        || unscaled.equals(BigInteger.ONE.subtract(intMax))) {
      throw new YtTransportException(
          type.describe()
              + " value is nan, +inf or -inf, which BigDecimal cannot hold (data-types.md)",
          null);
    }
    return new BigDecimal(unscaled, type.scale());
  }

  private static int decimalWidth(int precision) {
    return precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
  }

  // ---- decoding ----

  /**
   * Decodes in one pass with Jackson's streaming parser: each value goes from the parser's tokens
   * straight to the value the port defines (no intermediate tree, except under composite types,
   * which keep the two-step path below). A column's name (transcoded from {@code encode_utf8}) and
   * type are looked up once per distinct name per call, not per row.
   */
  @Override
  public void decode(byte[] body, Map<String, YtType> types, RowVisitor visitor) {
    Map<String, Column> columns = new HashMap<>();
    try (JsonParser parser = FACTORY.createParser(body)) {
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        if (token != JsonToken.START_OBJECT) {
          throw new YtTransportException("a tabular row is not a JSON object", null);
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String jsonName = parser.currentName();
          Column column = columns.get(jsonName);
          if (column == null) {
            String name = unescapedColumn(jsonName);
            column = new Column(name, types.get(name));
            columns.put(jsonName, column);
          }
          parser.nextToken();
          visitor.column(
              column.name(),
              column.type() == null
                  ? readYson(parser)
                  : readTyped(parser, column.type(), column.name()));
        }
        if (!visitor.endRow()) {
          return;
        }
      }
    } catch (IOException e) {
      throw new YtTransportException("a tabular response is not JSON lines", e);
    }
  }

  /**
   * A column name as the server's JSON writer gives it: a name that starts with {@code $} has one
   * more {@code $} ({@code json_writer.cpp}, {@code IsSpecialJsonKey}), so {@code $$row_index} is
   * {@code $row_index}. A single {@code $} is never a column name in its output.
   */
  private static String unescapedColumn(String jsonName) {
    if (jsonName.startsWith("$$")) {
      return text(jsonName.substring(1));
    }
    if (jsonName.startsWith("$")) {
      throw new YtTransportException(
          "a JSON row has the key \""
              + jsonName
              + "\", which the server's JSON writer would have escaped as \"$"
              + jsonName
              + "\"",
          null);
    }
    return text(jsonName);
  }

  /** A column as it arrives: its name as text and its type (null when the schema has none). */
  private record Column(String name, YtType type) {}

  /** The parser's current value against {@code type}; the same results as {@link #typed}. */
  private static Object readTyped(JsonParser parser, YtType type, String where) throws IOException {
    if (type instanceof YtTagged t) {
      return readTyped(parser, t.item(), where);
    }
    if (parser.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    if (type instanceof YtOptional o && !o.item().isNullable()) {
      return readTyped(parser, o.item(), where);
    }
    if (type instanceof YtPrimitive p && p != YtPrimitive.YSON) {
      return readPrimitive(parser, p, where);
    }
    // Composite values (and yson) are rare in queues: read them as a tree and convert.
    return typed(type, readRaw(parser), where);
  }

  private static Object readPrimitive(JsonParser parser, YtPrimitive type, String where)
      throws IOException {
    JsonToken token = parser.currentToken();
    switch (type) {
      case UINT8, UINT16, UINT32, UINT64, DATE, DATETIME, TIMESTAMP:
        if (token == JsonToken.VALUE_NUMBER_INT) {
          if (fitsLong(parser) && !startsWithMinus(parser)) {
            return parser.getLongValue();
          }
          return primitive(type, new RawNumber(parser.getText(), true), where);
        }
        throw mismatch(type, where);
      case INT8, INT16, INT32, INT64, INTERVAL, DATE32, DATETIME64, TIMESTAMP64, INTERVAL64:
        if (token == JsonToken.VALUE_NUMBER_INT && fitsLong(parser)) {
          return parser.getLongValue();
        }
        return primitive(type, readRaw(parser), where);
      case STRING:
        if (token == JsonToken.VALUE_STRING && isAscii(parser)) {
          return parser.getText();
        }
        return primitive(type, readRaw(parser), where);
      case UTF8:
      case JSON:
        if (token == JsonToken.VALUE_STRING && isAscii(parser)) {
          return parser.getText();
        }
        return primitive(type, readRaw(parser), where);
      default:
        return primitive(type, readRaw(parser), where);
    }
  }

  /** A plain YSON value from the parser; the same results as {@code yson(readRaw(parser))}. */
  private static Object readYson(JsonParser parser) throws IOException {
    switch (parser.currentToken()) {
      case VALUE_NULL:
        return null;
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NUMBER_INT:
        if (fitsLong(parser)) {
          return parser.getLongValue();
        }
        return yson(readRaw(parser));
      case VALUE_STRING:
        if (isAscii(parser)) {
          return parser.getText();
        }
        return yson(readRaw(parser));
      default:
        return yson(readRaw(parser));
    }
  }

  /** An integer token Jackson holds as an int or a long (so within int64). */
  private static boolean fitsLong(JsonParser parser) throws IOException {
    JsonParser.NumberType kind = parser.getNumberType();
    return kind == JsonParser.NumberType.INT || kind == JsonParser.NumberType.LONG;
  }

  private static boolean startsWithMinus(JsonParser parser) throws IOException {
    return parser.getTextLength() > 0 && parser.getTextCharacters()[parser.getTextOffset()] == '-';
  }

  /**
   * Only code points below U+0080: with {@code encode_utf8=true} those are the bytes of an ASCII
   * string, which is valid UTF-8 and decodes to the very same text.
   */
  private static boolean isAscii(JsonParser parser) throws IOException {
    char[] chars = parser.getTextCharacters();
    int from = parser.getTextOffset();
    int to = from + parser.getTextLength();
    for (int i = from; i < to; i++) {
      if (chars[i] >= 0x80) {
        return false;
      }
    }
    return true;
  }

  private static Object readRaw(JsonParser parser) throws IOException {
    switch (parser.currentToken()) {
      case VALUE_NULL:
        return null;
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NUMBER_INT:
        return new RawNumber(parser.getText(), true);
      case VALUE_NUMBER_FLOAT:
        return new RawNumber(parser.getText(), false);
      case VALUE_STRING:
        return new RawString(parser.getText());
      case START_ARRAY:
        List<Object> list = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          list.add(readRaw(parser));
        }
        return list;
      case START_OBJECT:
        Map<String, Object> map = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String key = parser.currentName();
          parser.nextToken();
          map.put(key, readRaw(parser));
        }
        return map;
      default:
        throw new YtTransportException("unexpected JSON token " + parser.currentToken(), null);
    }
  }

  /** {@code encode_utf8=%true}: each code point is one byte. */
  private static byte[] bytes(String json) {
    byte[] out = new byte[json.length()];
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c > 0xff) {
        throw new YtTransportException(
            "a JSON string with encode_utf8=true holds U+" + Integer.toHexString(c), null);
      }
      out[i] = (byte) c;
    }
    return out;
  }

  private static String text(String json) {
    return new String(bytes(json), StandardCharsets.UTF_8);
  }

  private static Object stringValue(byte[] bytes) {
    String text = YtValues.utf8OrNull(bytes);
    return text != null ? text : bytes;
  }

  /** A JSON value as a plain YSON value (the Yson model), for yson and untyped columns. */
  private static Object yson(Object raw) {
    if (raw == null || raw instanceof Boolean) {
      return raw;
    }
    if (raw instanceof RawNumber n) {
      if (!n.integral()) {
        return Double.parseDouble(n.text());
      }
      BigInteger value = new BigInteger(n.text());
      if (value.bitLength() < 64) {
        return value.longValue();
      }
      if (value.signum() > 0 && value.compareTo(TWO_64) < 0) {
        return new YsonUint64(value.longValue());
      }
      throw new YtTransportException("integer " + value + " is outside int64 and uint64", null);
    }
    if (raw instanceof RawString s) {
      return stringValue(bytes(s.text()));
    }
    if (raw instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(item -> out.add(yson(item)));
      return Collections.unmodifiableList(out);
    }
    Map<?, ?> map = (Map<?, ?>) raw;
    if (map.containsKey("$value")) {
      Object value = yson(map.get("$value"));
      Object attributes = map.get("$attributes");
      if (attributes instanceof Map<?, ?>) {
        @SuppressWarnings("unchecked")
        Map<String, Object> attrs = (Map<String, Object>) yson(attributes);
        return new YsonAttributed(attrs, value);
      }
      return value;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = (String) e.getKey();
      out.put(text(key.startsWith("$$") ? key.substring(1) : key), yson(e.getValue()));
    }
    return Collections.unmodifiableMap(out);
  }

  private static Object typed(YtType type, Object raw, String where) {
    if (type instanceof YtTagged t) {
      return typed(t.item(), raw, where);
    }
    if (raw == null) {
      return null;
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable()) {
        return typed(o.item(), raw, where);
      }
      List<?> wrapped = list(raw, type, where);
      List<Object> out = new ArrayList<>(1);
      out.add(typed(o.item(), wrapped.get(0), where + "[0]"));
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtPrimitive p) {
      return primitive(p, raw, where);
    }
    if (type instanceof YtDecimal d) {
      return decimalValue(d, bytes(string(raw, type, where)));
    }
    if (type instanceof YtList l) {
      List<Object> out = new ArrayList<>();
      for (Object item : list(raw, type, where)) {
        out.add(typed(l.item(), item, where + "[]"));
      }
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtTuple t) {
      List<?> items = list(raw, type, where);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < items.size() && i < t.elements().size(); i++) {
        out.add(typed(t.elements().get(i), items.get(i), where + "[" + i + "]"));
      }
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtStruct s) {
      Map<String, Object> out = new LinkedHashMap<>();
      if (raw instanceof List<?> positional) {
        for (int i = 0; i < s.members().size(); i++) {
          YtMember m = s.members().get(i);
          Object item = i < positional.size() ? positional.get(i) : null;
          out.put(m.name(), typed(m.type(), item, where + "." + m.name()));
        }
        return Collections.unmodifiableMap(out);
      }
      if (!(raw instanceof Map<?, ?> named)) {
        throw mismatch(type, where);
      }
      Map<String, Object> byName = new LinkedHashMap<>();
      named.forEach(
          (k, v) -> {
            String key = (String) k;
            byName.put(text(key.startsWith("$$") ? key.substring(1) : key), v);
          });
      for (YtMember m : s.members()) {
        out.put(m.name(), typed(m.type(), byName.get(m.name()), where + "." + m.name()));
      }
      return Collections.unmodifiableMap(out);
    }
    if (type instanceof YtDict d) {
      List<Object> out = new ArrayList<>();
      for (Object entry : list(raw, type, where)) {
        List<?> pair = list(entry, type, where);
        List<Object> kv = new ArrayList<>(2);
        kv.add(typed(d.key(), pair.get(0), where + ".key"));
        kv.add(typed(d.value(), pair.get(1), where + ".value"));
        out.add(Collections.unmodifiableList(kv));
      }
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtVariantTuple v) {
      List<?> pair = list(raw, type, where);
      int index = (int) signed(pair.get(0), type, where);
      List<Object> out = new ArrayList<>(2);
      out.add((long) index);
      out.add(typed(v.elements().get(index), pair.get(1), where + "<" + index + ">"));
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtVariantStruct v) {
      List<?> pair = list(raw, type, where);
      YtMember member;
      if (pair.get(0) instanceof RawNumber) {
        member = v.members().get((int) signed(pair.get(0), type, where));
      } else {
        String name = text(string(pair.get(0), type, where));
        member =
            v.members().stream()
                .filter(m -> m.name().equals(name))
                .findFirst()
                .orElseThrow(() -> mismatch(type, where));
      }
      List<Object> out = new ArrayList<>(2);
      out.add(member.name());
      out.add(typed(member.type(), pair.get(1), where + "<" + member.name() + ">"));
      return Collections.unmodifiableList(out);
    }
    throw mismatch(type, where);
  }

  private static Object primitive(YtPrimitive type, Object raw, String where) {
    switch (type) {
      case UINT8, UINT16, UINT32, UINT64, DATE, DATETIME, TIMESTAMP:
        if (raw instanceof RawNumber n && n.integral()) {
          try {
            return Long.parseUnsignedLong(n.text());
          } catch (NumberFormatException e) {
            throw new YtTransportException(where + ": " + n.text() + " is not a " + type, e);
          }
        }
        throw mismatch(type, where);
      case INT8, INT16, INT32, INT64, INTERVAL, DATE32, DATETIME64, TIMESTAMP64, INTERVAL64:
        return signed(raw, type, where);
      case FLOAT, DOUBLE:
        if (raw instanceof RawNumber n) {
          return Double.parseDouble(n.text());
        }
        if (raw instanceof RawString s) {
          // stringify_nan_and_infinity (json_writer.cpp: "nan", "inf", "-inf").
          switch (s.text()) {
            case "nan":
              return Double.NaN;
            case "inf":
              return Double.POSITIVE_INFINITY;
            case "-inf":
              return Double.NEGATIVE_INFINITY;
            default:
              break;
          }
        }
        throw mismatch(type, where);
      case BOOL:
        if (raw instanceof Boolean) {
          return raw;
        }
        throw mismatch(type, where);
      case STRING:
        return stringValue(bytes(string(raw, type, where)));
      case UTF8:
      case JSON:
        String text = YtValues.utf8OrNull(bytes(string(raw, type, where)));
        if (text == null) {
          throw new YtTransportException(where + ": a " + type + " value is not UTF-8", null);
        }
        return text;
      case UUID:
        return bytes(string(raw, type, where));
      case YSON:
        return yson(raw);
      case VOID:
      case NULL:
        throw mismatch(type, where);
    }
    throw mismatch(type, where);
  }

  private static long signed(Object raw, YtType type, String where) {
    if (raw instanceof RawNumber n && n.integral()) {
      try {
        return Long.parseLong(n.text());
      } catch (NumberFormatException e) {
        throw new YtTransportException(where + ": " + n.text() + " does not fit " + type, e);
      }
    }
    throw mismatch(type, where);
  }

  private static String string(Object raw, YtType type, String where) {
    if (raw instanceof RawString s) {
      return s.text();
    }
    throw mismatch(type, where);
  }

  private static List<?> list(Object raw, YtType type, String where) {
    if (raw instanceof List<?> list) {
      return list;
    }
    throw mismatch(type, where);
  }

  private static YtTransportException mismatch(YtType type, String where) {
    return new YtTransportException(
        "the server sent a value at " + where + " that is not a " + type.describe(), null);
  }
}
