package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.RawHttp.Reply;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The raw JSON the emulator takes and returns for typed columns, checked against the documented
 * representation (data-types.md "Representing compound types in formats"; formats.md JSON;
 * json_writer.cpp / json_callbacks.cpp for NaN and {@code $type}).
 */
class TypedWireProtocolTest {

  static final String TOKEN = "typed-wire-token";
  static final String BYTES = "{\"$value\":\"json\",\"$attributes\":{\"encode_utf8\":true}}";
  static final String BYTES_STRINGIFIED =
      "{\"$value\":\"json\",\"$attributes\":{\"encode_utf8\":true,"
          + "\"stringify_nan_and_infinity\":true}}";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

  private final RawHttp http = new RawHttp(TOKEN);

  private String base() {
    return yt.emulator().proxyUrls().get(0);
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  @BeforeEach
  void createTable() {
    String schema =
        "[{\"name\":\"s\",\"type_v3\":{\"type_name\":\"struct\",\"members\":["
            + "{\"name\":\"Foo\",\"type\":\"int64\"},"
            + "{\"name\":\"Bar\",\"type\":{\"type_name\":\"optional\",\"item\":\"utf8\"}}]}},"
            + "{\"name\":\"oo\",\"type_v3\":{\"type_name\":\"optional\",\"item\":"
            + "{\"type_name\":\"optional\",\"item\":\"bool\"}}},"
            + "{\"name\":\"d\",\"type_v3\":{\"type_name\":\"dict\",\"key\":\"string\","
            + "\"value\":\"int32\"}},"
            + "{\"name\":\"v\",\"type_v3\":{\"type_name\":\"variant\",\"members\":["
            + "{\"name\":\"Foo\",\"type\":\"int64\"},"
            + "{\"name\":\"Bar\",\"type\":{\"type_name\":\"optional\",\"item\":\"utf8\"}}]}},"
            + "{\"name\":\"u\",\"type\":\"uint64\"},"
            + "{\"name\":\"x\",\"type\":\"double\"},"
            + "{\"name\":\"dec\",\"type_v3\":{\"type_name\":\"decimal\",\"precision\":5,"
            + "\"scale\":4}},"
            + "{\"name\":\"y\",\"type\":\"any\"}]";
    ok(
        http.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"//t\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,\"schema\":"
                + schema
                + "}}"));
    ok(http.command("POST", base(), "mount_table", "{\"path\":\"//t\"}"));
  }

  private Reply insert(String line) {
    return http.send(
        "PUT",
        base() + "/api/v4/insert_rows",
        "{\"path\":\"//t\"}",
        null,
        line.getBytes(StandardCharsets.UTF_8),
        BYTES);
  }

  private Reply select(String outputFormat) {
    return http.getWithOutputFormat(
        base()
            + "/api/v4/select_rows?query="
            + URLEncoder.encode("* from [//t]", StandardCharsets.UTF_8),
        outputFormat);
  }

  @Test
  void getSchemaReturnsTypeV3AndTheOldStyleTypeOfEachColumn() {
    JsonNode schema = ok(http.command("GET", base(), "get", "{\"path\":\"//t/@schema\"}")).json();

    JsonNode columns = schema.path("value").path("$value");
    assertEquals(true, schema.path("value").path("$attributes").path("strict").asBoolean());
    assertEquals("struct", columns.get(0).path("type_v3").path("type_name").asText());
    assertEquals("any", columns.get(0).path("type").asText());
    assertEquals(true, columns.get(0).path("required").asBoolean());
    // optional<optional<bool>>: the v1 type is any, not required (logical_type.cpp CastToV1Type).
    assertEquals("any", columns.get(1).path("type").asText());
    assertEquals(false, columns.get(1).path("required").asBoolean());
    assertEquals("uint64", columns.get(4).path("type").asText());
    assertEquals(
        "{\"type_name\":\"optional\",\"item\":\"uint64\"}",
        columns.get(4).path("type_v3").toString());
    assertEquals("string", columns.get(6).path("type").asText());
    assertEquals(5, columns.get(6).path("type_v3").path("precision").asInt());
  }

  @Test
  void compositeValuesComeBackInTheDocumentedShape() {
    ok(
        insert(
            "{\"s\":{\"Foo\":42,\"Bar\":null},\"oo\":[null],\"d\":[[\"one\",1],[\"four\",4]],"
                + "\"v\":[\"Bar\",\"foo bar\"],\"u\":18446744073709551615,"
                + "\"x\":{\"$type\":\"double\",\"$value\":\"nan\"},"
                + "\"dec\":\"\\u0080\\u0000z\\u00b7\","
                + "\"y\":{\"$attributes\":{\"a\":1},\"$value\":{\"$$k\":[1,2.5]}}}\n"));

    Reply reply = ok(select(BYTES_STRINGIFIED));

    String raw = reply.text();
    // uint64 above 2^63-1 as an unsigned JSON number, not a double nor a negative int64.
    assertTrue(raw.contains("\"u\":18446744073709551615"), raw);
    JsonNode row = reply.rows().get(0);
    assertEquals("{\"Foo\":42,\"Bar\":null}", row.path("s").toString());
    assertEquals("[null]", row.path("oo").toString());
    assertEquals("[[\"one\",1],[\"four\",4]]", row.path("d").toString());
    assertEquals("[\"Bar\",\"foo bar\"]", row.path("v").toString());
    assertEquals("nan", row.path("x").asText());
    // decimal(5,4) 3.1415: 31415 as 4 big-endian bytes with the top bit inverted (data-types.md).
    assertEquals("\u0080\u0000\u007a\u00b7", row.path("dec").asText());
    assertEquals(
        "{\"$attributes\":{\"a\":1},\"$value\":{\"$$k\":[1,2.5]}}", row.path("y").toString());
    // ... and the value stored is the decimal those bytes stand for.
    assertEquals(
        new BigDecimal("3.1415"),
        yt.emulator().cluster().outputTables().readAll(YPath.of("//t")).get(0).get("dec"));
  }

  @Test
  void aPositionalStructWithTrailingOptionalsOmittedIsAccepted() {
    ok(insert("{\"s\":[7],\"d\":[],\"v\":[\"Foo\",1],\"dec\":\"\\u0080\\u0000\\u0000\\u0000\"}\n"));

    JsonNode row = ok(select(BYTES_STRINGIFIED)).rows().get(0);

    assertEquals("{\"Foo\":7,\"Bar\":null}", row.path("s").toString());
    assertEquals("[]", row.path("d").toString());
    assertTrue(row.path("oo").isNull());
  }

  @Test
  void nanWithoutStringifyIsAnErrorAsOnTheServer() {
    ok(
        insert(
            "{\"s\":{\"Foo\":1},\"d\":[],\"v\":[\"Foo\",1],"
                + "\"x\":{\"$type\":\"double\",\"$value\":\"-inf\"},"
                + "\"dec\":\"\\u0080\\u0000\\u0000\\u0000\"}\n"));

    Reply reply = select(BYTES);

    assertEquals(400, reply.status(), reply.text());
    assertTrue(reply.text().contains("stringify_nan_and_infinity"), reply.text());
    assertEquals("-inf", ok(select(BYTES_STRINGIFIED)).rows().get(0).path("x").asText());
  }

  @Test
  void typeMismatchesAndSingleDollarKeysAreRejected() {
    String valid = "\"d\":[],\"v\":[\"Foo\",1],\"dec\":\"\\u0080\\u0000\\u0000\\u0000\"";
    assertEquals(400, insert("{\"s\":{\"Foo\":\"x\"}," + valid + "}\n").status());
    assertEquals(400, insert("{\"s\":{\"Foo\":1},\"u\":-1," + valid + "}\n").status());
    assertEquals(400, insert("{\"s\":{\"Foo\":1},\"y\":{\"$k\":1}," + valid + "}\n").status());
    assertEquals(400, insert("{\"s\":{\"Foo\":1},\"v\":[\"Baz\",1],\"d\":[]}\n").status());
    assertEquals(0, ok(select(BYTES_STRINGIFIED)).rows().size());
  }

  @Test
  void aRefusedValueIsNamedByItsLineAndColumn() {
    String valid = "\"d\":[],\"v\":[\"Foo\",1],\"dec\":\"\\u0080\\u0000\\u0000\\u0000\"";
    Reply reply =
        insert("{\"s\":{\"Foo\":1}," + valid + "}\n{\"s\":{\"Foo\":1},\"u\":-1," + valid + "}\n");
    assertEquals(400, reply.status(), reply.text());
    assertTrue(reply.text().contains("line 2 column \\\"u\\\""), reply.text());
    assertEquals(0, ok(select(BYTES_STRINGIFIED)).rows().size());
  }
}
