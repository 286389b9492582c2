package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.QueueRow;
import io.ytstream.types.yson.Yson;
import io.ytstream.ytsaurus.http.RawHttpPeer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP client against a scripted server: retries only where repeating is safe, mutation ids,
 * unknown commit outcomes, error JSON from the body or the header, timeouts, row-index checks.
 */
class YtHttpClientTest {

  private static final String TOKEN = "scripted-secret";
  private final ScriptedProxy proxy = new ScriptedProxy();
  private final ObjectMapper json = new ObjectMapper();

  @AfterEach
  void stop() {
    proxy.close();
  }

  private YtsaurusClientConfig config() {
    return new YtsaurusClientConfig(
        URI.create(proxy.url()),
        Optional.of(OAuthToken.of(TOKEN)),
        Optional.of("scripted"),
        Duration.ofSeconds(2),
        Duration.ofSeconds(2),
        3,
        Duration.ofMillis(5),
        false,
        Optional.empty(),
        RequestLogger.NONE,
        ProxyFailover.DEFAULTS);
  }

  private YtHttpClient client() {
    return new YtHttpClient(config());
  }

  private ObjectNode params(String path) {
    ObjectNode params = json.createObjectNode();
    params.put("path", path);
    return params;
  }

  @Test
  void readsAreRetriedAfter503AndSucceed() {
    proxy
        .then(ScriptedProxy.status(503, ""))
        .then(ScriptedProxy.status(503, ""))
        .then(ScriptedProxy.ok("{\"value\":42}"));

    JsonNode value =
        client().structured(URI.create(proxy.url()), Command.GET, params("//a"), Repeat.READ);

    assertEquals(42, value.path("value").asInt());
    assertEquals(3, proxy.received().size());
    assertEquals("GET", proxy.received().get(0).method());
    assertEquals("/api/v4/get", proxy.received().get(0).path());
    assertEquals("OAuth " + TOKEN, proxy.received().get(0).authorization());
  }

  @Test
  void retriesAreBoundedAnd503IsTypedForTheCore() {
    proxy
        .then(ScriptedProxy.status(503, ""))
        .then(ScriptedProxy.status(503, ""))
        .then(ScriptedProxy.status(503, ""))
        .then(ScriptedProxy.ok("{}"));

    YtHttpException error =
        assertThrows(
            YtHttpException.class,
            () ->
                client()
                    .structured(URI.create(proxy.url()), Command.GET, params("//a"), Repeat.READ));

    assertEquals(3, proxy.received().size(), "maxAttempts=3");
    assertTrue(error.hasCode(503));
    assertEquals(CommitOutcome.RETRY_LATER, CommitErrorClassifier.classify(error));
  }

  @Test
  void lightMutationsCarryOneMutationIdWithRetryFalseThenTrue() throws Exception {
    proxy.then(ScriptedProxy.drop()).then(ScriptedProxy.ok("{\"node_id\":\"1-2-3-4\"}"));

    client().structured(URI.create(proxy.url()), Command.CREATE, params("//a"), Repeat.MUTATION_ID);

    List<ScriptedProxy.Received> received = proxy.received();
    assertEquals(2, received.size());
    JsonNode first = json.readTree(received.get(0).parameters());
    JsonNode second = json.readTree(received.get(1).parameters());
    assertEquals("POST", received.get(0).method());
    assertFalse(first.path("retry").asBoolean(true));
    assertTrue(second.path("retry").asBoolean(false));
    assertEquals(first.path("mutation_id").asText(), second.path("mutation_id").asText());
    assertFalse(first.path("mutation_id").asText().isEmpty());
  }

  @Test
  void aCommitWhoseResponseIsLostHasAnUnknownOutcomeAndIsNotRepeated() {
    proxy.then(ScriptedProxy.drop()).then(ScriptedProxy.ok("{}"));
    ObjectNode params = json.createObjectNode();
    params.put("transaction_id", "1-2-3-4");

    assertThrows(
        CommitOutcomeUnknownException.class,
        () ->
            client()
                .structured(
                    URI.create(proxy.url()), Command.COMMIT_TRANSACTION, params, Repeat.COMMIT));
    assertEquals(1, proxy.received().size(), "a commit is never sent twice");
  }

  @Test
  void aNonIdempotentWriteIsNotRepeatedAfterALostResponse() {
    proxy.then(ScriptedProxy.drop()).then(ScriptedProxy.ok("{}"));

    assertThrows(
        YtTransportException.class,
        () ->
            client()
                .structured(
                    URI.create(proxy.url()),
                    Command.INSERT_ROWS,
                    params("//t"),
                    new byte[] {'{', '}'},
                    Repeat.ONCE));
    assertEquals(1, proxy.received().size());
  }

  @Test
  void errorsAreReadFromTheHeaderWhenTheBodyIsEmptyAndInnerCodesAreSearched() {
    proxy.then(
        ScriptedProxy.errorHeaderOnly(
            400,
            "{\"code\":1,\"message\":\"wrapper\",\"inner_errors\":[{\"code\":1,\"message\":\"mid\","
                + "\"inner_errors\":[{\"code\":3100,\"message\":\"Offset conflict\"}]}]}"));

    YtHttpException error =
        assertThrows(
            YtHttpException.class,
            () ->
                client()
                    .structured(
                        URI.create(proxy.url()),
                        Command.ADVANCE_QUEUE_CONSUMER,
                        params("//c"),
                        Repeat.ONCE));

    assertEquals(1, error.code());
    assertTrue(error.hasCode(3100), error.codes().toString());
    assertEquals(CommitOutcome.FENCED, CommitErrorClassifier.classify(error));
    assertTrue(error.getMessage().contains("Offset conflict"), error.getMessage());
    assertEquals(400, error.httpStatus());
  }

  @Test
  void everyRequestHasATimeout() {
    proxy
        .then(ScriptedProxy.slow(3_000, ScriptedProxy.ok("{}")))
        .then(ScriptedProxy.slow(3_000, ScriptedProxy.ok("{}")))
        .then(ScriptedProxy.slow(3_000, ScriptedProxy.ok("{}")));
    YtHttpClient client = new YtHttpClient(config().withRequestTimeout(Duration.ofMillis(300)));
    long started = System.nanoTime();

    YtTransportException e =
        assertThrows(
            YtTransportException.class,
            () ->
                client.structured(
                    URI.create(proxy.url()), Command.GET, params("//a"), Repeat.READ));
    assertTrue(e.getMessage().contains("within 300 ms"), e.getMessage());
    assertTrue(e.getMessage().contains("yt.http.requestTimeoutMs=300"), e.getMessage());

    long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
    assertTrue(
        elapsedMillis < 2_500, "3 attempts of 300 ms, not the server's 3 s: " + elapsedMillis);
  }

  @Test
  void anErrorInTheTrailersOfAStartedAnswerFailsTheRequest() {
    // A proxy that leaves dump_error_into_response aside reports a late error in the trailers
    // (yt/yt/server/http_proxy/context.cpp, FillFormattedYTErrorTrailers): half the rows are no
    // answer.
    try (RawHttpPeer peer = new RawHttpPeer()) {
      peer.then(
          c -> {
            c.read();
            byte[] rows = queueRows(0, "a");
            c.write(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(rows.length)
                    + "\r\n");
            c.write(rows);
            c.write(
                "\r\n0\r\nX-YT-Error: {\"code\":1,\"message\":\"Tablet cell went away\"}\r\n"
                    + "X-YT-Response-Code: 1\r\n\r\n");
          });
      ObjectNode params = json.createObjectNode();
      params.put("queue_path", "//q");
      YtHttpException e =
          assertThrows(
              YtHttpException.class,
              () ->
                  client()
                      .send(URI.create(peer.url()), Command.PULL_QUEUE, params, null, Repeat.READ));
      assertTrue(e.getMessage().contains("Tablet cell went away"), e.getMessage());
      assertTrue(e.getMessage().contains("after the answer had started"), e.getMessage());
    }
  }

  /** The answer to the reader's {@code get //q/@schema}, which comes before its first pull. */
  private static final ScriptedProxy.Step QUEUE_SCHEMA =
      ScriptedProxy.ok("{\"value\":[{\"name\":\"v\",\"type\":\"string\"}]}");

  /** Pulled rows of tablet 0 in binary YSON, as the server writes them: index, value, ... */
  private static byte[] queueRows(Object... indexesAndValues) {
    List<Object> rows = new ArrayList<>();
    for (int i = 0; i < indexesAndValues.length; i += 2) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("$tablet_index", 0L);
      row.put("$row_index", ((Integer) indexesAndValues[i]).longValue());
      row.put("v", indexesAndValues[i + 1]);
      rows.add(row);
    }
    return Yson.toBinaryListFragment(rows);
  }

  @Test
  void pullStopsAtAGapBetweenTwoReadsSoTheCallerSeesItAtTheNextStart() {
    // First pull: rows 0..2 (short). Second pull from 3 returns 5..6: rows 3..4 were trimmed.
    proxy
        .then(QUEUE_SCHEMA)
        .then(ScriptedProxy.okBytes(queueRows(0, "a", 1, "b", 2, "c")))
        .then(ScriptedProxy.okBytes(queueRows(5, "f", 6, "g")));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(config())) {
      List<QueueRow> rows =
          cluster
              .queueReader()
              .pull(
                  ConsumerId.of("scripted", "//c"),
                  new PartitionId(QueueId.of("scripted", "//q"), 0),
                  0,
                  10);

      assertEquals(3, rows.size(), "only the contiguous prefix: " + rows);
      assertEquals(2, rows.get(2).rowIndex());
    }
  }

  @Test
  void aPullThatGoesBackwardsIsAProtocolViolation() {
    proxy.then(QUEUE_SCHEMA).then(ScriptedProxy.okBytes(queueRows(3, "x")));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(config())) {
      YtTransportException error =
          assertThrows(
              YtTransportException.class,
              () ->
                  cluster
                      .queueReader()
                      .pull(
                          ConsumerId.of("scripted", "//c"),
                          new PartitionId(QueueId.of("scripted", "//q"), 0),
                          5,
                          10));
      assertTrue(error.getMessage().contains("below the offset"), error.getMessage());
    }
  }

  private List<QueueRow> pullFrom(long offset) {
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(config())) {
      return cluster
          .queueReader()
          .pull(
              ConsumerId.of("scripted", "//c"),
              new PartitionId(QueueId.of("scripted", "//q"), 0),
              offset,
              10);
    }
  }

  @Test
  void aTrimmedStartIsPassedOnWhereStartOffsetAndTheFirstRowAgree() {
    // Rows 0..4 were trimmed: the read starts at 5, and says so (queue_rowset.cpp, GetStartOffset).
    proxy
        .then(QUEUE_SCHEMA)
        .then(ScriptedProxy.okBytes(queueRows(5, "f", 6, "g"), "{\"start_offset\":5}"));

    List<QueueRow> rows = pullFrom(0);

    assertEquals(List.of(5L, 6L), rows.stream().map(QueueRow::rowIndex).toList());
  }

  @Test
  void aStartOffsetThatIsNotTheFirstRowIsAProtocolViolation() {
    proxy
        .then(QUEUE_SCHEMA)
        .then(ScriptedProxy.okBytes(queueRows(5, "f", 6, "g"), "{\"start_offset\":4}"));

    YtTransportException error = assertThrows(YtTransportException.class, () -> pullFrom(0));

    assertTrue(
        error.getMessage().contains("answered start_offset 4 with its first row at 5"),
        error.getMessage());
  }

  @Test
  void aStartOffsetBelowTheOffsetAskedForIsAProtocolViolation() {
    proxy.then(QUEUE_SCHEMA).then(ScriptedProxy.okBytes(new byte[0], "{\"start_offset\":3}"));

    YtTransportException error = assertThrows(YtTransportException.class, () -> pullFrom(7));

    assertTrue(
        error.getMessage().contains("at offset 7 answered start_offset 3"), error.getMessage());
  }
}
