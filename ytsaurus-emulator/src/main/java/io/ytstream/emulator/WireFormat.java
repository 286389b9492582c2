package io.ytstream.emulator;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonAttributed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A data format of a request or an answer, as the proxy infers it ({@code
 * yt/yt/server/http_proxy/formats.cpp}, {@code InferFormat}): from {@code X-YT-Input-Format} /
 * {@code X-YT-Output-Format} (read in the header format: JSON by default, text YSON with {@code
 * X-YT-Header-Format: yson}), else from {@code Content-Type} / {@code Accept} by MIME type, else
 * the data type's default ({@code json} for structured data, {@code <format=text>yson} for tabular
 * data).
 *
 * <p>The emulator serves two formats: {@code json} (attributes {@code encode_utf8}, default true,
 * and {@code stringify_nan_and_infinity}) and {@code yson} (attribute {@code format}: {@code
 * binary}, the default of {@code TYsonFormatConfig}, {@code text} or {@code pretty}, which is
 * written as text). Tabular data is a list fragment: JSON one object per line; YSON each row
 * followed by {@code ;} (text YSON: and a newline). YSON needs no key escaping; JSON writes a map
 * key that starts with {@code $} with one more {@code $} and refuses a single {@code $} on input
 * ({@code yt/yt/core/json/json_writer.cpp}, {@code json_callbacks.cpp}), row keys included.
 */
final class WireFormat {

  static final ObjectMapper JSON = new ObjectMapper();

  /** The place given a value's conversion before it is refused (see {@link #row}). */
  private static final String UNPLACED = "a value";

  /** The format families the emulator reads and writes. */
  enum Kind {
    JSON,
    YSON
  }

  private final Kind kind;
  private final boolean encodeUtf8;
  private final boolean stringifyNanAndInfinity;
  private final boolean binary;

  private WireFormat(
      Kind kind, boolean encodeUtf8, boolean stringifyNanAndInfinity, boolean binary) {
    this.kind = kind;
    this.encodeUtf8 = encodeUtf8;
    this.stringifyNanAndInfinity = stringifyNanAndInfinity;
    this.binary = binary;
  }

  static WireFormat json(boolean encodeUtf8) {
    return new WireFormat(Kind.JSON, encodeUtf8, false, false);
  }

  static WireFormat yson(boolean binary) {
    return new WireFormat(Kind.YSON, false, false, binary);
  }

  /** The default of tabular data without a format header: {@code <format=text>yson}. */
  static WireFormat tabularDefault() {
    return yson(false);
  }

  Kind kind() {
    return kind;
  }

  boolean encodeUtf8() {
    return encodeUtf8;
  }

  boolean isYson() {
    return kind == Kind.YSON;
  }

  /** The MIME type the proxy answers with ({@code formats.cpp}, {@code FormatToMime}). */
  String mimeType() {
    if (kind == Kind.JSON) {
      return "application/json";
    }
    return binary ? "application/x-yt-yson-binary" : "application/x-yt-yson-text";
  }

  /** This format as text YSON, e.g. {@code <format=binary>yson}, for the journal. */
  String spec() {
    if (kind == Kind.YSON) {
      return binary ? "<format=binary>yson" : "<format=text>yson";
    }
    return "<encode_utf8=" + (encodeUtf8 ? "%true" : "%false") + ">json";
  }

  /** Reads a {@link #spec()} back. */
  static WireFormat fromSpec(String spec) {
    return fromNode(Yson.parse(spec), spec, "input");
  }

  /**
   * The format of a request's {@code target} ("input" or "output"): {@code header} (the X-YT format
   * header, may be null) read in the header format, else {@code mimeType} ({@code
   * Content-Type}/{@code Accept}), else {@code dataTypeDefault}.
   */
  static WireFormat infer(
      String target,
      String header,
      boolean ysonHeaders,
      String mimeType,
      WireFormat dataTypeDefault) {
    if (header != null && !header.isBlank()) {
      Object node;
      try {
        node =
            ysonHeaders
                ? Yson.parse(header.strip().getBytes(StandardCharsets.ISO_8859_1))
                : new TypedJson(true, false).toYson(JSON.readTree(header.strip()));
      } catch (IOException | IllegalArgumentException e) {
        throw CommandError.badRequest("Unable to parse format header " + header + ": " + e);
      }
      return fromNode(node, header, target);
    }
    if (mimeType != null) {
      Optional<WireFormat> byMime = fromMime(mimeType.strip());
      if (byMime.isPresent()) {
        return byMime.get();
      }
    }
    return dataTypeDefault;
  }

  /**
   * The {@code input_format} or {@code output_format} parameter ({@code target}): a YSON format
   * node, which reaches the commands as its text form ({@code <format=binary>yson}) from YSON
   * parameters, or as the JSON form of a node ({@code {"$value":"yson","$attributes":{..}}}).
   */
  static WireFormat fromParameter(JsonNode parameter, String target) {
    Object node;
    try {
      node =
          parameter.isTextual()
              ? Yson.parse(parameter.textValue().strip().getBytes(StandardCharsets.UTF_8))
              : new TypedJson(true, false).toYson(parameter);
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest(
          "Unable to parse parameter " + target + "_format " + parameter + ": " + e.getMessage());
    }
    return fromNode(node, parameter.toString(), target);
  }

  /** {@code formats.cpp}, {@code MimeTypeToFormatTable}: the entries the emulator serves. */
  private static Optional<WireFormat> fromMime(String mime) {
    return switch (mime) {
      case "application/json" -> Optional.of(json(true));
      case "application/x-yt-yson-binary" -> Optional.of(yson(true));
      case "application/x-yt-yson-text", "application/x-yt-yson-pretty" -> Optional.of(yson(false));
      default -> Optional.empty();
    };
  }

  private static WireFormat fromNode(Object node, String header, String target) {
    Map<String, Object> attributes = Map.of();
    Object name = node;
    if (node instanceof YsonAttributed attributed) {
      attributes = attributed.attributes();
      name = attributed.value();
    }
    if (!(name instanceof byte[] bytes)) {
      throw CommandError.badRequest("A format must be a string with attributes, got " + header);
    }
    String type = new String(bytes, StandardCharsets.UTF_8);
    switch (type) {
      case "json":
        return new WireFormat(
            Kind.JSON,
            flag(attributes, "encode_utf8", true),
            flag(attributes, "stringify_nan_and_infinity", false),
            false);
      case "yson":
        {
          Object format = attributes.get("format");
          String text = format instanceof byte[] f ? new String(f, StandardCharsets.UTF_8) : null;
          if (format != null && !List.of("binary", "text", "pretty").contains(text)) {
            throw CommandError.badRequest(
                "Error parsing format attribute \"format\" of yson: expected binary, text or"
                    + " pretty, got "
                    + (text == null ? String.valueOf(format) : text));
          }
          return yson(format == null || "binary".equals(text));
        }
      default:
        // yt/yt/library/formats/format.cpp (CreateSchemafulWriterForFormat, CreateParserForFormat)
        // answers other types with this message; a real proxy serves a few more (schemaful_dsv,
        // web_json for tabular output) that the emulator does not.
        throw CommandError.badRequest("Unsupported " + target + " format \"" + type + "\"");
    }
  }

  private static boolean flag(Map<String, Object> attributes, String name, boolean fallback) {
    Object value = attributes.get(name);
    if (value == null) {
      return fallback;
    }
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof byte[] text) {
      String s = new String(text, StandardCharsets.UTF_8);
      if (s.equals("true") || s.equals("false")) {
        return Boolean.parseBoolean(s);
      }
    }
    throw CommandError.badRequest(
        "Format attribute \"" + name + "\" must be a boolean, got " + value);
  }

  // ---- tabular input ----

  /**
   * Tabular input, each column read against its type ({@code types}; columns without a type, such
   * as {@code $tablet_index}, are read as plain YSON values).
   */
  List<Row> readRows(byte[] body, Map<String, YtType> types) {
    TypedJson typed = new TypedJson(encodeUtf8, stringifyNanAndInfinity);
    List<Row> rows = new ArrayList<>();
    if (kind == Kind.YSON) {
      List<Object> items;
      try {
        items = Yson.parseListFragment(body);
      } catch (IllegalArgumentException e) {
        throw CommandError.badRequest("Error parsing YSON input: " + e.getMessage());
      }
      for (int i = 0; i < items.size(); i++) {
        rows.add(row(typed, items.get(i), types, "row ", i));
      }
      return rows;
    }
    String text = new String(body, StandardCharsets.UTF_8);
    int lineNumber = 0;
    for (String line : text.split("\n", -1)) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (IOException e) {
        throw CommandError.badRequest("input line " + lineNumber + " is not JSON");
      }
      // The whole row goes through the JSON-to-YSON rules: "$$x" is the key "$x", a single "$"
      // is refused, {"$value":..,"$attributes":..} is a node with attributes.
      rows.add(row(typed, typed.toYson(node), types, "line ", lineNumber));
    }
    return rows;
  }

  /** One input row; {@code unit} and {@code number} say where it is ("row 3") in a refusal. */
  private static Row row(
      TypedJson typed, Object yson, Map<String, YtType> types, String unit, int number) {
    if (!(yson instanceof Map<?, ?> map)) {
      throw CommandError.badRequest(unit + number + " of the input is not a map");
    }
    // Names and values side by side: the map's keys are distinct, and a map per row cost a hash
    // insertion per column on every push.
    Object[] namesAndValues = new Object[2 * map.size()];
    int i = 0;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String column = (String) entry.getKey();
      YtType type = types.get(column);
      Object value;
      try {
        value = typed.fromYson(type, entry.getValue(), UNPLACED);
      } catch (CommandError refused) {
        // Conversion is pure: the refused value once more, with its place spelled out for the
        // message, which is not built for every column of every row a push carries.
        value =
            typed.fromYson(type, entry.getValue(), unit + number + " column \"" + column + "\"");
      }
      namesAndValues[i++] = column;
      namesAndValues[i++] = value;
    }
    return Row.of(namesAndValues);
  }

  // ---- tabular output ----

  /**
   * Tabular output, each column written as its type requires; rows go while the weight so far
   * ({@link RowDataWeight}) is below {@code maxDataWeight}, so the row that crosses it is the last
   * one ({@code yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}; the first always goes).
   */
  byte[] writeRows(List<Row> rows, Map<String, YtType> types, long maxDataWeight) {
    if (kind == Kind.YSON) {
      return YsonRowWriter.write(rows, types, binary, maxDataWeight);
    }
    TypedJson typed = new TypedJson(encodeUtf8, stringifyNanAndInfinity);
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(256, rows.size() * 64));
    // Column names repeat on every row: transcode each once per answer.
    Map<String, String> jsonKeys = new HashMap<>();
    try (JsonGenerator gen = JSON.getFactory().createGenerator(out)) {
      gen.setRootValueSeparator(new SerializedString("\n"));
      long weight = 0;
      boolean first = true;
      for (Row row : rows) {
        if (!first && weight >= maxDataWeight) {
          break;
        }
        weight += RowDataWeight.of(row, types);
        first = false;
        gen.writeStartObject();
        RowLayout layout = row.layout();
        for (int i = 0; i < layout.size(); i++) {
          String column = layout.name(i);
          gen.writeFieldName(jsonKeys.computeIfAbsent(column, typed::escapedKey));
          typed.write(gen, types.get(column), row.valueAt(i));
        }
        gen.writeEndObject();
      }
      if (!rows.isEmpty()) {
        gen.writeRaw('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  // ---- structured output ----

  /** A structured answer (built as JSON) in this format. */
  byte[] writeStructured(JsonNode value) {
    if (kind == Kind.YSON) {
      Object node = new TypedJson(false, false).toYson(value);
      return YsonBytes.node(node, binary);
    }
    return value.toString().getBytes(StandardCharsets.UTF_8);
  }
}
