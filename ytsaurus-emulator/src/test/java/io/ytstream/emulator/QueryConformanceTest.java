package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Column names in {@code select_rows} as the query lexer reads them ({@code
 * yt/yt/library/query/base/lexer.rl6}): a bare identifier is {@code [a-zA-Z_][a-zA-Z_0-9]*} minus
 * the keywords, so {@code offset} (a keyword) and {@code $row_index} must be bracketed.
 */
class QueryConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final RawHttp http = new RawHttp(null);

  private Reply select(String query) {
    return http.command("GET", yt.emulator().url(), "select_rows", "{\"query\":\"" + query + "\"}");
  }

  @Test
  void aKeywordOrADollarNameIsAColumnOnlyInBrackets() {
    Reply consumer =
        http.command(
            "POST",
            yt.emulator().url(),
            "create",
            "{\"path\":\"//c\",\"type\":\"queue_consumer\"}");
    assertEquals(200, consumer.status(), consumer.text());

    assertEquals(200, select("[offset], partition_index from [//c]").status());
    Reply bare = select("offset from [//c]");
    assertEquals(400, bare.status());
    assertTrue(bare.json().path("message").asText().contains("keyword"), bare.text());
    assertEquals(400, select("[offset] from [//c] where OFFSET = 1").status());
    assertEquals(400, select("* from [//c] where $row_index = 0").status());
  }
}
