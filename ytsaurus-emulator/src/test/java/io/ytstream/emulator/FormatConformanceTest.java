package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tabular formats as the server reads and writes them, checked against bytes built by hand from the
 * YSON spec and the server's writers ({@code yt/yt/core/yson/writer.cpp}: every item in a map or
 * list ends with {@code ;}, each row of a list fragment too; text rows end with {@code ;\n}), the
 * format inference of {@code yt/yt/server/http_proxy/formats.cpp} (tabular default {@code
 * <format=text>yson}) and the JSON {@code $} rules of {@code yt/yt/core/json/json_writer.cpp} and
 * {@code json_callbacks.cpp}. Not a round trip through a codec: expected bytes are literals.
 */
class FormatConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final RawHttp http = new RawHttp(null);

  private String url(String command) {
    return yt.emulator().url() + "/api/v4/" + command;
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  /** Bytes from a mix of ints (single bytes) and strings (their ASCII bytes). */
  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      if (part instanceof Integer b) {
        out.write(b);
      } else {
        out.writeBytes(((String) part).getBytes(StandardCharsets.US_ASCII));
      }
    }
    return out.toByteArray();
  }

  private void queueWithRow() {
    ok(
        http.command(
            "POST",
            yt.emulator().url(),
            "create",
            "{\"path\":\"//home/q\",\"type\":\"table\",\"recursive\":true,\"attributes\":"
                + "{\"dynamic\":true,\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));
    ok(http.command("POST", yt.emulator().url(), "mount_table", "{\"path\":\"//home/q\"}"));
    ok(
        http.command(
            "POST",
            yt.emulator().url(),
            "create",
            "{\"path\":\"//home/c\",\"type\":\"queue_consumer\"}"));
    ok(
        http.command(
            "POST",
            yt.emulator().url(),
            "register_queue_consumer",
            "{\"queue_path\":\"//home/q\",\"consumer_path\":\"//home/c\",\"vital\":false}"));
    ok(
        http.raw(
            "PUT",
            url("insert_rows"),
            bytes("{\"$tablet_index\"=0;value=ab};"),
            "X-YT-Header-Format",
            "yson",
            "X-YT-Parameters",
            "{path=\"//home/q\"}",
            "X-YT-Input-Format",
            "<format=text>yson"));
  }

  private static final String PULL =
      "pull_queue_consumer?consumer_path=//home/c&queue_path=//home/q&partition_index=0&offset=0";

  @Test
  void pullInBinaryYsonWritesTheServersBytes() {
    queueWithRow();

    Reply reply =
        ok(
            http.raw(
                "GET",
                url(PULL),
                null,
                "X-YT-Output-Format",
                "{\"$value\":\"yson\",\"$attributes\":{\"format\":\"binary\"}}"));

    // The queue declares no $timestamp, so the row has none.
    byte[] expected =
        bytes(
            "{",
            0x01,
            0x1a,
            "$tablet_index=",
            0x02,
            0x00,
            ";",
            0x01,
            0x14,
            "$row_index=",
            0x02,
            0x00,
            ";",
            0x01,
            0x0a,
            "value=",
            0x01,
            0x04,
            "ab;",
            "};");
    assertArrayEquals(expected, reply.response().body(), reply.text());
    assertEquals("application/x-yt-yson-binary", reply.header("Content-Type"));
  }

  @Test
  void ysonWithoutAttributesIsBinaryAndTabularOutputWithoutAHeaderIsTextYson() {
    queueWithRow();

    Reply plainYson = ok(http.raw("GET", url(PULL), null, "X-YT-Output-Format", "\"yson\""));
    assertEquals(0x01, plainYson.response().body()[1], "binary string marker after '{'");

    Reply noHeader = ok(http.raw("GET", url(PULL), null));
    assertEquals("{\"$tablet_index\"=0;\"$row_index\"=0;\"value\"=\"ab\";};\n", noHeader.text());
    assertEquals("application/x-yt-yson-text", noHeader.header("Content-Type"));
  }

  @Test
  void acceptHeaderChoosesTheFormatByMimeType() {
    queueWithRow();

    Reply reply = ok(http.raw("GET", url(PULL), null, "Accept", "application/x-yt-yson-binary"));

    assertEquals(0x01, reply.response().body()[1]);
  }

  @Test
  void pullsRefuseArrow() {
    queueWithRow();

    Reply reply = http.raw("GET", url(PULL), null, "X-YT-Output-Format", "\"arrow\"");

    assertEquals(400, reply.status());
    assertEquals("Unsupported output format \"arrow\"", reply.json().path("message").asText());
  }

  @Test
  void jsonOutputEscapesDollarKeysOfRows() {
    queueWithRow();

    Reply reply =
        ok(http.raw("GET", url(PULL), null, "X-YT-Output-Format", RawHttp.JSON_NO_ENCODE));

    assertEquals("{\"$$tablet_index\":0,\"$$row_index\":0,\"value\":\"ab\"}\n", reply.text());
  }

  @Test
  void jsonInputRefusesASingleDollarAndReadsADoubleOne() {
    queueWithRow();

    Reply single =
        http.raw(
            "PUT",
            url("insert_rows"),
            bytes("{\"$tablet_index\":0,\"value\":\"x\"}\n"),
            "X-YT-Parameters",
            "{\"path\":\"//home/q\"}",
            "X-YT-Input-Format",
            "\"json\"");
    assertEquals(400, single.status());
    assertEquals(
        "Key \"$tablet_index\" starts with single \"$\"; use \"$$tablet_index\" to encode this"
            + " key in JSON format",
        single.json().path("message").asText());

    ok(
        http.raw(
            "PUT",
            url("insert_rows"),
            bytes("{\"$$tablet_index\":0,\"value\":\"x\"}\n"),
            "X-YT-Parameters",
            "{\"path\":\"//home/q\"}",
            "X-YT-Input-Format",
            "\"json\""));
    Reply pulled = ok(http.raw("GET", url(PULL), null));
    assertTrue(pulled.text().endsWith("\"$row_index\"=1;\"value\"=\"x\";};\n"), pulled.text());
  }

  private void sortedTable() {
    ok(
        http.command(
            "POST",
            yt.emulator().url(),
            "create",
            "{\"path\":\"//home/s\",\"type\":\"table\",\"recursive\":true,\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"k\",\"type\":\"int64\",\"sort_order\":\"ascending\"},"
                + "{\"name\":\"n\",\"type\":\"uint64\"},{\"name\":\"s\",\"type\":\"string\"}]}}"));
    ok(http.command("POST", yt.emulator().url(), "mount_table", "{\"path\":\"//home/s\"}"));
    // Binary YSON input, given by MIME type: {k=1;n=5u;s="x";};{k=2;n=2^64-1;s="y\n";};
    ok(
        http.raw(
            "PUT",
            url("insert_rows?path=//home/s"),
            bytes(
                "{", 0x01, 0x02, "k=", 0x02, 0x02, ";", 0x01, 0x02, "n=", 0x06, 0x05, ";", 0x01,
                0x02, "s=", 0x01, 0x02, "x;};", "{", 0x01, 0x02, "k=", 0x02, 0x04, ";", 0x01, 0x02,
                "n=", 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, ";", 0x01,
                0x02, "s=", 0x01, 0x04, "y\n;};"),
            "Content-Type",
            "application/x-yt-yson-binary"));
  }

  @Test
  void lookupReadsYsonKeysAndWritesTextYsonWithUnsignedMarkersAndEscapes() {
    sortedTable();

    Reply reply =
        ok(
            http.raw(
                "PUT",
                url("lookup_rows"),
                bytes("{k=2};{k=1};"),
                "X-YT-Header-Format",
                "yson",
                "X-YT-Parameters",
                "{path=\"//home/s\"}",
                "X-YT-Output-Format",
                "<format=text>yson"));

    assertEquals(
        "{\"k\"=2;\"n\"=18446744073709551615u;\"s\"=\"y\\n\";};\n"
            + "{\"k\"=1;\"n\"=5u;\"s\"=\"x\";};\n",
        reply.text());
  }

  @Test
  void selectWritesBinaryYsonAndDeleteReadsYsonKeys() {
    sortedTable();

    Reply selected =
        ok(
            http.raw(
                "GET",
                url("select_rows?query=" + "*%20from%20%5B//home/s%5D%20where%20k%20=%201"),
                null,
                "X-YT-Output-Format",
                "\"yson\""));
    byte[] expected =
        bytes(
            "{", 0x01, 0x02, "k=", 0x02, 0x02, ";", 0x01, 0x02, "n=", 0x06, 0x05, ";", 0x01, 0x02,
            "s=", 0x01, 0x02, "x;", "};");
    assertArrayEquals(expected, selected.response().body());

    ok(
        http.raw(
            "PUT",
            url("delete_rows?path=//home/s"),
            bytes("{k=1;};"),
            "X-YT-Input-Format",
            "\"yson\""));
    Reply after = ok(http.raw("GET", url("select_rows?query=k%20from%20%5B//home/s%5D"), null));
    assertEquals("{\"k\"=2;};\n", after.text());
    assertFalse(after.text().contains("\"k\"=1"));
  }

  @Test
  void structuredAnswersFollowTheOutputFormatToo() {
    Reply reply =
        ok(
            http.raw(
                "GET",
                url("get?path=//sys/@cluster_name"),
                null,
                "X-YT-Output-Format",
                "<format=text>yson",
                "X-YT-Header-Format",
                "yson"));

    assertEquals("{\"value\"=\"emulator\";}", reply.text());
  }
}
