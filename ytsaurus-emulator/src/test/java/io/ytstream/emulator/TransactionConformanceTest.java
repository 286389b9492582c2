package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import io.ytstream.inmemory.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tablet transactions over HTTP as the proxy's sticky pool treats them ({@code
 * yt/yt/client/api/sticky_transaction_pool.cpp}, {@code yt/yt/client/driver/command-inl.h}): a
 * committed, aborted or expired transaction is forgotten, so every later ping, commit or abort
 * answers 11000, never 11003.
 */
class TransactionConformanceTest {

  private final ManualClock clock = new ManualClock();

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withClock(clock));

  private final RawHttp http = new RawHttp(null);

  private Reply post(String command, String parameters) {
    return http.command("POST", yt.emulator().url(), command, parameters);
  }

  private String start(long timeoutMillis) {
    Reply reply =
        post("start_transaction", "{\"type\":\"tablet\",\"timeout\":" + timeoutMillis + "}");
    assertEquals(200, reply.status(), reply.text());
    return reply.json().path("transaction_id").asText();
  }

  private static String tx(String id) {
    return "{\"transaction_id\":\"" + id + "\"}";
  }

  private static void assertForgotten(Reply reply, String id) {
    assertEquals(400, reply.status(), reply.text());
    assertEquals(11000, reply.errorCode(), reply.text());
    assertTrue(
        reply
            .json()
            .path("message")
            .asText()
            .startsWith("Sticky transaction " + id + " is not found"),
        reply.text());
    assertTrue(!reply.allCodes().contains(11003), reply.text());
  }

  @Test
  void aCommittedTransactionIsForgotten() {
    String id = start(30_000);
    assertEquals(200, post("commit_transaction", tx(id)).status());

    assertForgotten(post("ping_transaction", tx(id)), id);
    assertForgotten(post("commit_transaction", tx(id)), id);
    assertForgotten(post("abort_transaction", tx(id)), id);
  }

  @Test
  void anAbortedTransactionIsForgotten() {
    String id = start(30_000);
    assertEquals(200, post("abort_transaction", tx(id)).status());

    assertForgotten(post("commit_transaction", tx(id)), id);
    assertForgotten(post("ping_transaction", tx(id)), id);
  }

  @Test
  void anExpiredLeaseForgetsTheTransactionAndEveryUseRenewsIt() {
    String renewed = start(10_000);
    String lapsed = start(10_000);
    clock.advanceMillis(6_000);
    assertEquals(200, post("ping_transaction", tx(renewed)).status());
    clock.advanceMillis(6_000);

    assertEquals(200, post("ping_transaction", tx(renewed)).status(), "renewed at 6 s");
    assertForgotten(post("commit_transaction", tx(lapsed)), lapsed);
  }

  @Test
  void aFailedCommitAbortsAndForgetsTheTransaction() {
    assertEquals(
        200,
        post(
                "create",
                "{\"path\":\"//s\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                    + "\"schema\":[{\"name\":\"k\",\"type\":\"int64\",\"sort_order\":"
                    + "\"ascending\"},{\"name\":\"v\",\"type\":\"string\"}]}}")
            .status());
    assertEquals(200, post("mount_table", "{\"path\":\"//s\"}").status());
    String first = start(30_000);
    String second = start(30_000);
    for (String id : new String[] {first, second}) {
      Reply write =
          http.put(
              yt.emulator().url(),
              "insert_rows",
              "{\"path\":\"//s\",\"transaction_id\":\"" + id + "\"}",
              "{\"k\":1,\"v\":\"" + id + "\"}\n");
      assertEquals(200, write.status(), write.text());
    }
    assertEquals(200, post("commit_transaction", tx(first)).status());

    Reply conflict = post("commit_transaction", tx(second));
    assertTrue(conflict.allCodes().contains(1700), conflict.text());

    assertForgotten(post("abort_transaction", tx(second)), second);
  }
}
