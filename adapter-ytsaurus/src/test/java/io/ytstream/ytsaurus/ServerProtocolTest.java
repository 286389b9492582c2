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
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.NodeStatus;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.types.yson.Yson;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Details of the wire protocol that the server's code fixes (file names under {@code
 * ytsaurus/ytsaurus}), against a scripted server that answers as the server would.
 */
class ServerProtocolTest {

  private static final String TOKEN = "protocol-secret";
  private final ScriptedProxy proxy = new ScriptedProxy();
  private final ObjectMapper json = new ObjectMapper();

  @AfterEach
  void stop() {
    proxy.close();
  }

  private YtHttpClient client() {
    return new YtHttpClient(proxy.config(TOKEN));
  }

  private ObjectNode params(String path) {
    ObjectNode params = json.createObjectNode();
    params.put("path", path);
    return params;
  }

  private URI url() {
    return URI.create(proxy.url());
  }

  /** {@code library/cpp/yt/misc/guid.cpp}: exactly four hex parts of at most 32 bits. */
  @Test
  void mutationIdsAreGuidsTheServerParses() throws Exception {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      String id = MutationId.random();
      assertTrue(MutationId.isGuid(id), id);
      assertTrue(id.matches("[0-9a-f]{1,8}(-[0-9a-f]{1,8}){3}"), id);
      seen.add(id);
    }
    assertEquals(200, seen.size(), "random");
    assertFalse(MutationId.isGuid("3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "a Java UUID");
    assertFalse(MutationId.isGuid("1-2-3"));
    assertFalse(MutationId.isGuid("1-2-3-100000000"), "above 32 bits");
    assertTrue(MutationId.isGuid("1a2b-3c4d-5e6f-7a8b"));

    proxy.then(ScriptedProxy.drop()).then(ScriptedProxy.ok("{\"node_id\":\"1-2-3-4\"}"));
    client().structured(url(), Command.CREATE, params("//a"), Repeat.MUTATION_ID);
    JsonNode first = json.readTree(proxy.received().get(0).parameters());
    JsonNode second = json.readTree(proxy.received().get(1).parameters());
    assertTrue(MutationId.isGuid(first.path("mutation_id").asText()), first.toString());
    assertEquals(first.path("mutation_id"), second.path("mutation_id"));
    assertFalse(first.path("retry").asBoolean(true));
    assertTrue(second.path("retry").asBoolean(false));
  }

  /**
   * {@code yt/yt/server/http_proxy/formats.cpp}: with plain {@code json} headers a non-ASCII path
   * would arrive as the wrong bytes; {@code encode_utf8=%false} reads the escapes as text.
   */
  @Test
  void parametersTravelAsAsciiJsonReadAsText() throws Exception {
    proxy.then(ScriptedProxy.ok("{\"value\":1}"));
    String path = "//home/данные/表/😀";

    client().structured(url(), Command.GET, params(path), Repeat.READ);

    ScriptedProxy.Received sent = proxy.received().get(0);
    assertEquals("<encode_utf8=%false>json", sent.header("X-YT-Header-Format"));
    String header = sent.parameters();
    assertTrue(
        StandardCharsets.US_ASCII.newEncoder().canEncode(header), "ASCII on the wire: " + header);
    assertEquals(path, json.readTree(header).path("path").asText(), "the escapes decode to it");
  }

  /** {@code yt/python/yt/wrapper/dynamic_table_commands.py}: what a read retries. */
  @Test
  void readsRetryTheTabletErrorsThePythonClientRetries() {
    for (int code : List.of(1701, 1702, 1713, 1721, 1735, 1736, 105)) {
      try (ScriptedProxy server = new ScriptedProxy()) {
        server.then(ScriptedProxy.status(400, error(code))).then(ScriptedProxy.ok("{\"value\":7}"));
        JsonNode value =
            new YtHttpClient(server.config(TOKEN))
                .structured(URI.create(server.url()), Command.GET, params("//t"), Repeat.READ);
        assertEquals(7, value.path("value").asInt(), "code " + code);
        assertEquals(2, server.received().size(), "code " + code + " retried");
      }
    }
  }

  @Test
  void aWriteDoesNotRetryATabletErrorAfterItWasSent() {
    proxy.then(ScriptedProxy.status(400, error(1701))).then(ScriptedProxy.ok("{}"));

    YtHttpException e =
        assertThrows(
            YtHttpException.class,
            () ->
                client()
                    .structured(
                        url(), Command.INSERT_ROWS, params("//t"), new byte[0], Repeat.ONCE));

    assertTrue(e.hasCode(1701));
    assertEquals(1, proxy.received().size());
  }

  /** {@code yt/yt/server/http_proxy/http_authenticator.cpp}: 401 with code 111. */
  @Test
  void anAuthenticationErrorNamesTheProxyAndNeverTheToken() {
    proxy.then(
        ScriptedProxy.status(
            401, "{\"code\":111,\"message\":\"Client is missing credentials (" + TOKEN + ")\"}"));

    YtHttpException e =
        assertThrows(
            YtHttpException.class,
            () -> client().structured(url(), Command.GET, params("//t"), Repeat.READ));

    assertTrue(e.getMessage().contains(proxy.url()), e.getMessage());
    assertTrue(e.getMessage().contains("yt.token"), "says how to fix it: " + e.getMessage());
    assertFalse(e.getMessage().contains(TOKEN), e.getMessage());
    assertTrue(e.hasCode(111) && e.hasCode(401), e.codes().toString());
    assertEquals(1, proxy.received().size(), "not retried");
  }

  /** {@code yt/yt/server/http_proxy/coordinator.cpp}: {@code /hosts} lists bare host names. */
  @Test
  void hostsWithoutPortsTakeTheSchemeAndPortOfTheClusterAddress() {
    URI cluster = URI.create("https://yt.example:8443");
    assertEquals(
        URI.create("https://proxy-1.example:8443"),
        ProxyAddress.fromHostsEntry("proxy-1.example", cluster));
    assertEquals(
        URI.create("https://proxy-1.example:9013"),
        ProxyAddress.fromHostsEntry("proxy-1.example:9013", cluster));
    assertEquals(
        URI.create("http://proxy-2"),
        ProxyAddress.fromHostsEntry("proxy-2", URI.create("http://yt.example")));
  }

  /** {@code yt/yt/client/queue_client/consumer_client.cpp} selects {@code [offset]}. */
  @Test
  void consumerOffsetsAreSelectedWithABracketedOffset() throws Exception {
    proxy.then(ScriptedProxy.okBytes(new byte[0]));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      cluster
          .consumerOffsets()
          .read(ConsumerId.of("scripted", "//c"), QueueId.of("scripted", "//q"));
    }
    String query = json.readTree(proxy.received().get(0).parameters()).path("query").asText();
    assertTrue(query.startsWith("partition_index, [offset] from [//c] where"), query);
  }

  /** A file's length is what read_file returns: its uncompressed size. */
  @Test
  void aFilesLengthIsItsUncompressedSize() {
    proxy.then(
        ScriptedProxy.ok(
            "{\"value\":{\"type\":\"file\",\"compressed_data_size\":10,"
                + "\"uncompressed_data_size\":25,"
                + "\"modification_time\":\"2026-01-02T03:04:05.000000Z\"}}"));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      NodeStatus status = cluster.checkpoints().status(YPath.of("//ckpt/0")).orElseThrow();
      assertEquals(25, status.length());
    }
  }

  /**
   * The bytes {@code DumpError} appends ({@code yt/yt/server/http_proxy/context.cpp}): a newline,
   * then the delimiter (newline, 80 '=', newline), the error as pretty JSON, the delimiter.
   */
  private static byte[] dumped(byte[] before, int code) {
    String delimiter = "\n" + "=".repeat(80) + "\n";
    String pretty =
        "{\n    \"code\" : 1,\n    \"message\" : \"Error reading\",\n    \"inner_errors\" : [\n"
            + "        {\n            \"code\" : "
            + code
            + ",\n            \"message\" : \"Tablet failed\"\n        }\n    ]\n}";
    byte[] tail = ("\n" + delimiter + pretty + delimiter).getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(before, before.length + tail.length);
    System.arraycopy(tail, 0, out, before.length, tail.length);
    return out;
  }

  private static byte[] oneQueueRow(long index) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("$tablet_index", 0L);
    row.put("$row_index", index);
    row.put("v", "x");
    return Yson.toBinaryListFragment(List.of(row));
  }

  private static final ScriptedProxy.Step QUEUE_SCHEMA =
      ScriptedProxy.ok("{\"value\":[{\"name\":\"v\",\"type\":\"string\"}]}");

  @Test
  void anErrorAfterRowsStartedIsAnErrorNotAShortAnswer() throws Exception {
    proxy.then(QUEUE_SCHEMA).then(ScriptedProxy.okBytes(dumped(oneQueueRow(0), 1700)));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      YtHttpException e =
          assertThrows(
              YtHttpException.class,
              () ->
                  cluster
                      .queueReader()
                      .pull(
                          ConsumerId.of("scripted", "//c"),
                          new PartitionId(QueueId.of("scripted", "//q"), 0),
                          0,
                          10));
      assertTrue(e.hasCode(1700), e.codes().toString());
      assertTrue(e.getMessage().contains("Tablet failed"), e.getMessage());
    }
    JsonNode pull = json.readTree(proxy.received().get(1).parameters());
    assertTrue(pull.path("dump_error_into_response").asBoolean(), pull.toString());
    assertEquals(2, proxy.received().size(), "1700 is not a read to retry");
  }

  @Test
  void aTransientErrorInTheBodyIsRetriedLikeAnyOther() {
    proxy
        .then(QUEUE_SCHEMA)
        .then(ScriptedProxy.okBytes(dumped(oneQueueRow(0), 1701)))
        .then(ScriptedProxy.okBytes(oneQueueRow(0)));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      List<QueueRow> rows =
          cluster
              .queueReader()
              .pull(
                  ConsumerId.of("scripted", "//c"),
                  new PartitionId(QueueId.of("scripted", "//q"), 0),
                  0,
                  10);
      assertEquals(1, rows.size());
    }
  }

  @Test
  void aFileWhoseReadFailedHalfWayIsNotReturned() throws Exception {
    byte[] content = "{\"batchWatermarkMs\":0}".getBytes(StandardCharsets.UTF_8);
    proxy.then(ScriptedProxy.okBytes(dumped(content, 716)));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      YtHttpException e =
          assertThrows(
              YtHttpException.class,
              () -> cluster.checkpoints().readFile(YPath.of("//ckpt/offsets/0")));
      assertTrue(e.hasCode(716), e.codes().toString());
    }
    JsonNode read = json.readTree(proxy.received().get(0).parameters());
    assertTrue(read.path("dump_error_into_response").asBoolean(), read.toString());
  }

  @Test
  void aBodyThatOnlyLooksLikeADumpIsData() {
    byte[] delimiterOnly = ("x\n" + "=".repeat(80) + "\n").getBytes(StandardCharsets.UTF_8);
    assertTrue(DumpedError.find(delimiterOnly).isEmpty());
    assertTrue(DumpedError.find(new byte[0]).isEmpty());
    DumpedError.Split split = DumpedError.find(dumped(new byte[] {1, 2}, 5)).orElseThrow();
    assertEquals(2, split.data().length);
  }

  /**
   * {@code yt/yt/client/api/sticky_transaction_pool.cpp}: a committed transaction is forgotten, so
   * 11000 on commit may follow a commit that landed.
   */
  @Test
  void aCommitAnswered11000HasAnUnknownOutcome() {
    proxy
        .then(ScriptedProxy.ok("{\"transaction_id\":\"1-2-3-4\"}"))
        .then(
            ScriptedProxy.status(
                400, "{\"code\":11000,\"message\":\"No such transaction 1-2-3-4\"}"));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));

      YtHttpException e = assertThrows(YtHttpException.class, tx::commit);

      assertTrue(e.hasCode(11000), "the server's code is kept: " + e.codes());
      assertEquals(CommitOutcome.UNKNOWN, CommitErrorClassifier.classify(e));
      assertTrue(e.getMessage().contains("consumer row"), e.getMessage());
    }
    assertEquals(2, proxy.received().size(), "the commit is not sent again");
  }

  /**
   * {@code yt/yt/server/http_proxy/context.cpp}: a command the server does not know answers 404
   * "Command ... is not registered"; the driver knows the old names ({@code driver.cpp}).
   */
  /** A handle that finished its transaction answers as the ports define, without asking. */
  @Test
  void aTransactionFinishedThroughThisHandleAnswersLocally() {
    proxy
        .then(ScriptedProxy.ok("{\"transaction_id\":\"1-2-3-5\"}"))
        .then(ScriptedProxy.ok("{}"))
        .then(ScriptedProxy.ok("{\"transaction_id\":\"1-2-3-6\"}"))
        .then(ScriptedProxy.ok("{}"));
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      TabletTransaction committed = cluster.transactions().start(Duration.ofSeconds(30));
      committed.commit();
      assertTrue(
          assertThrows(YtHttpException.class, committed::commit).hasCode(11003), "commit twice");
      assertTrue(assertThrows(YtHttpException.class, committed::abort).hasCode(11003));

      TabletTransaction aborted = cluster.transactions().start(Duration.ofSeconds(30));
      aborted.abort();
      aborted.abort();
      assertTrue(assertThrows(YtHttpException.class, aborted::commit).hasCode(11003));
    }
    assertEquals(4, proxy.received().size(), "start, commit, start, abort: " + proxy.received());
  }

  @Test
  void aServerThatKnowsOnlyTheOldQueueCommandsIsAskedWithThem() {
    String unknown = "{\"code\":1,\"message\":\"Command \\\"%s\\\" is not registered\"}";
    proxy
        .then(QUEUE_SCHEMA)
        .then(ScriptedProxy.status(404, String.format(unknown, "pull_queue_consumer")))
        .then(ScriptedProxy.okBytes(oneQueueRow(0)))
        .then(ScriptedProxy.okBytes(oneQueueRow(1)))
        .then(ScriptedProxy.status(404, String.format(unknown, "advance_queue_consumer")))
        .then(ScriptedProxy.ok("{}"));
    ConsumerId consumer = ConsumerId.of("scripted", "//c");
    PartitionId partition = new PartitionId(QueueId.of("scripted", "//q"), 0);
    try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
      assertEquals(1, cluster.queueReader().pull(consumer, partition, 0, 10).size());
      assertEquals(1, cluster.queueReader().pull(consumer, partition, 1, 10).size());
      cluster.consumerOffsets().advance(consumer, partition, OptionalLong.of(0), 2);
    }
    List<String> paths = proxy.received().stream().map(ScriptedProxy.Received::path).toList();
    assertEquals(
        List.of(
            "/api/v4/get",
            "/api/v4/pull_queue_consumer",
            "/api/v4/pull_consumer",
            "/api/v4/pull_consumer",
            "/api/v4/advance_queue_consumer",
            "/api/v4/advance_consumer"),
        paths);
  }

  private static String error(int code) {
    return "{\"code\":1,\"message\":\"wrapper\",\"inner_errors\":[{\"code\":"
        + code
        + ",\"message\":\"inner\"}]}";
  }
}
