package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducerErrors;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The micro-batch sink with option {@code producer_path}: each task pushes its share of a batch
 * through a producer session of its own, numbered from the batch id, so a batch that runs again
 * writes nothing twice without a batch transaction.
 */
class ProducerSinkTest {

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.MAX_ROWS_PER_TABLET);
    spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
  }

  private static TestCluster source(TestCluster c) {
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 2);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    c.produce("//q", 0, 0, 10);
    c.produce("//q", 1, 100, 106);
    return c;
  }

  private static List<Long> expected() {
    List<Long> ids = new ArrayList<>(TestCluster.range(0, 10));
    ids.addAll(TestCluster.range(100, 106));
    return ids;
  }

  private Dataset<org.apache.spark.sql.Row> read() {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .option("max_rows_per_partition", "4")
        .load("//q");
  }

  private static void write(
      Dataset<org.apache.spark.sql.Row> df, String out, String producer, String ckpt)
      throws Exception {
    df.writeStream()
        .format("yt")
        .option("path", out)
        .option("producer_path", producer)
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.AvailableNow())
        .start()
        .awaitTermination();
  }

  private void run(String ckpt) throws Exception {
    write(read(), "//out", "//producer", ckpt);
  }

  /** The messages of an error and all its causes, joined. */
  private static String failure(Executable action) {
    Throwable t = assertThrows(Throwable.class, action);
    StringBuilder all = new StringBuilder();
    for (Throwable e = t; e != null; e = e.getCause()) {
      all.append(e.getMessage()).append(" | ");
    }
    return all.toString();
  }

  private static void assertMentions(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
    }
  }

  @Test
  void aBatchRunAgainAfterItsPushesIsSkippedByTheServer() throws Exception {
    TestCluster c = source(TestCluster.create(spark, "producer-replay"));
    run("yt:///ckpt/p");
    assertEquals(expected(), c.ids("//out"));

    // A driver killed after the tasks pushed batch N and before Spark wrote commits/N.
    long replayed = c.dropLastCommit("//ckpt/p");
    try (LogCapture skipped = new LogCapture("was already in //out")) {
      run("yt:///ckpt/p");
      List<String> reports = skipped.leaks();
      assertFalse(reports.isEmpty(), "the replay of batch " + replayed + " was not reported");
      assertMentions(reports.get(0), "batch " + replayed, "2 rows were not pushed again");
    }
    assertEquals(expected(), c.ids("//out"), "nothing written twice");
    assertEquals(16, c.consumerTotal("//c", "//q"));

    c.produce("//q", 1, 106, 109);
    run("yt:///ckpt/p");
    List<Long> more = expected();
    more.addAll(TestCluster.range(106, 109));
    more.sort(Long::compare);
    assertEquals(more, c.ids("//out"), "the batches after the replay are pushed");
  }

  @Test
  void aQueryKilledBetweenItsTasksPushesWritesEachRowOnceAfterARestart() throws Exception {
    TestCluster c = source(TestCluster.create(spark, "producer-kill"));
    run("yt:///ckpt/k");
    c.produce("//q", 0, 10, 13);
    c.produce("//q", 1, 106, 109);
    // The next batch has two tasks: the first push lands, every attempt of the other fails, so
    // the query dies with one share of the batch in the queue and no commits/N.
    c.cluster.faults().skipNext(ClusterOperation.TX_PRODUCER_PUSH, 1);
    c.cluster.faults().failNext(ClusterOperation.TX_PRODUCER_PUSH, 100, 1, "proxy went away");
    String failure = failure(() -> run("yt:///ckpt/k"));
    // The failed task's last attempt fails with the injected error, or, when Spark's output commit
    // coordinator had authorized an earlier attempt of that partition, with Spark's denial of the
    // commit: either way that share never lands.
    assertTrue(
        failure.contains("proxy went away") || failure.contains("Commit denied for partition"),
        "expected the injected push failure in: " + failure);
    assertEquals(expected().size() + 3, c.ids("//out").size(), "one task's share landed");
    c.cluster.faults().clearPending();

    run("yt:///ckpt/k");

    List<Long> all = expected();
    all.addAll(TestCluster.range(10, 13));
    all.addAll(TestCluster.range(106, 109));
    all.sort(Long::compare);
    assertEquals(all, c.ids("//out"), "each row exactly once");
    assertEquals(22, c.consumerTotal("//c", "//q"));
  }

  @Test
  void aShareOfManyChunksLandsOnceAtItsCommitWithItsRowCountInUserMeta() throws Exception {
    TestCluster c = TestCluster.create(spark, "producer-chunks");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 2);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    c.produce("//q", 0, 0, 4);
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "2");
    // One batch of 4 rows, chunks of 2: pushes of 1, 2 and (with the held-back row and user_meta)
    // 1 row. The last push fails on every attempt: the task dies with two pushes in its
    // transaction, and none of them may land.
    c.cluster.faults().skipNext(ClusterOperation.TX_PRODUCER_PUSH, 2);
    c.cluster.faults().failNext(ClusterOperation.TX_PRODUCER_PUSH, 100, 1, "proxy went away");
    assertMentions(failure(() -> run("yt:///ckpt/chunks")), "proxy went away");
    assertEquals(List.of(), c.ids("//out"), "a share lands all or none");
    c.cluster.faults().clearPending();

    run("yt:///ckpt/chunks");

    assertEquals(TestCluster.range(0, 4), c.ids("//out"), "every row once");
    String queryId = onlySessionQueryId(c);
    ProducerSession session =
        c.cluster
            .queueProducers()
            .createSession(
                new ProducerSessionId(
                    YPath.of("//producer"), YPath.of("//out"), queryId + "/partition-0"));
    Map<?, ?> meta = (Map<?, ?>) session.userMeta().orElseThrow();
    assertEquals(0L, ((Number) meta.get("batch_id")).longValue());
    assertEquals(4L, ((Number) meta.get("row_count")).longValue(), "known at the last chunk");
    assertEquals(3, session.sequenceNumber(), "batch 0 numbers its 4 rows 0..3 across chunks");
  }

  @Test
  void aShareWhoseTransactionExpiresBetweenChunksFailsNamingTheTimeout() {
    TestCluster c = TestCluster.create(spark, "producer-expiry");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 2);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    c.produce("//q", 0, 0, 4);
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "2");
    // The second push of the share finds its transaction gone, as after a lapsed lease.
    c.cluster.faults().skipNext(ClusterOperation.TX_PRODUCER_PUSH, 1);
    c.cluster
        .faults()
        .failNext(
            ClusterOperation.TX_PRODUCER_PUSH,
            100,
            YtErrorCode.NO_SUCH_TRANSACTION,
            "No such transaction");

    String message = failure(() -> run("yt:///ckpt/expiry"));

    assertMentions(
        message,
        "expired or is unknown",
        "Nothing of it is in the queue",
        "Raise spark.yt.streaming.transactionTimeoutMs (now 30000)",
        YtSettings.DYN_BATCH_SIZE);
    assertEquals(List.of(), c.ids("//out"));
  }

  @Test
  void theSessionsUserMetaRecordsTheBatchAndItsSourceEnd() throws Exception {
    TestCluster c = TestCluster.create(spark, "producer-meta");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    c.produce("//q", 0, 0, 3);
    run("yt:///ckpt/meta");
    String queryId = onlySessionQueryId(c);

    ProducerSession session =
        c.cluster
            .queueProducers()
            .createSession(
                new ProducerSessionId(
                    YPath.of("//producer"), YPath.of("//out"), queryId + "/partition-0"));

    Map<?, ?> meta = (Map<?, ?>) session.userMeta().orElseThrow();
    assertEquals(0L, ((Number) meta.get("batch_id")).longValue());
    assertEquals(3L, ((Number) meta.get("row_count")).longValue());
    assertMentions(String.valueOf(meta.get("source_end_offsets")), "//q", "3");
    assertEquals(2, session.sequenceNumber(), "batch 0 numbers its 3 rows 0, 1, 2");
  }

  private static String onlySessionQueryId(TestCluster c) {
    List<io.ytstream.ports.Row> sessions = c.rows("//producer");
    assertEquals(1, sessions.size(), "one task, one session: " + sessions);
    String id = (String) sessions.get(0).get("session_id");
    assertTrue(id.endsWith("/partition-0"), id);
    return id.substring(0, id.length() - "/partition-0".length());
  }

  @Test
  void aShareOverThePerTabletLimitInItsFirstChunkFailsBeforeAnyPush() {
    TestCluster c = source(TestCluster.create(spark, "producer-limit"));
    spark.conf().set(YtSettings.MAX_ROWS_PER_TABLET, "1");

    String message = failure(() -> run("yt:///ckpt/limit"));

    assertMentions(
        message,
        "option producer_path",
        "rows for tablet",
        YtSettings.MAX_ROWS_PER_TABLET + " = 1",
        "Nothing of this task landed",
        "max_rows_per_partition");
    assertEquals(List.of(), c.ids("//out"));
    for (io.ytstream.ports.Row session : c.rows("//producer")) {
      assertEquals(
          -1L, ((Number) session.get("sequence_number")).longValue(), "never pushed: " + session);
    }
    assertEquals(0, c.consumerTotal("//c", "//q"));
  }

  @Test
  void aFencedPushFailsTheTaskNamingTheCause() {
    TestCluster c = source(TestCluster.create(spark, "producer-fenced"));
    c.cluster
        .faults()
        .failNext(
            ClusterOperation.TX_PRODUCER_PUSH,
            100,
            QueueProducerErrors.ZOMBIE_EPOCH,
            "Zombie epoch 0: the session is at epoch 1");

    String message = failure(() -> run("yt:///ckpt/fenced"));

    assertMentions(
        message,
        "is fenced",
        "a newer attempt of the same task, or a second driver",
        "is not retried",
        "none of its rows landed");
    assertEquals(List.of(), c.ids("//out"));
    assertEquals(0, c.consumerTotal("//c", "//q"));
  }

  @Test
  void producerPathWithTheTransactionalModeIsRefused() {
    TestCluster c = source(TestCluster.create(spark, "producer-tx"));
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");

    String message = failure(() -> run("yt:///ckpt/tx"));

    assertMentions(
        message,
        "option producer_path = '//producer'",
        YtSettings.TRANSACTIONAL + "=true cannot be combined",
        "Remove option producer_path");
    assertEquals(List.of(), c.ids("//out"));
  }

  @Test
  void aSortedOutputIsRefused() {
    TestCluster c = source(TestCluster.create(spark, "producer-sorted"));
    c.sortedTable(
        "//sorted",
        List.of(
            new Column("id", "int64", true, true), new Column("payload", "string", false, false)));

    String message = failure(() -> write(read(), "//sorted", "//producer", "yt:///ckpt/sorted"));

    assertMentions(message, "option path = '//sorted' is a sorted table", "Point option path");
    assertEquals(List.of(), c.ids("//sorted"));
  }

  @Test
  void aMissingProducerIsRefused() {
    TestCluster c = source(TestCluster.create(spark, "producer-missing"));

    String message = failure(() -> write(read(), "//out", "//nope", "yt:///ckpt/missing"));

    assertMentions(
        message,
        "option producer_path = '//nope'",
        "no such queue producer",
        "yt create queue_producer //nope");
    assertEquals(List.of(), c.ids("//out"));
  }

  @Test
  void aTableThatIsNotAProducerIsRefused() {
    TestCluster c = source(TestCluster.create(spark, "producer-notone"));

    String message = failure(() -> write(read(), "//out", "//q", "yt:///ckpt/notone"));

    assertMentions(
        message,
        "option producer_path = '//q' is not a queue producer",
        "it has no key",
        "yt create queue_producer");
    assertEquals(List.of(), c.ids("//out"));
  }

  @Test
  void aStaticWriteWithProducerPathIsRefused() {
    TestCluster c = source(TestCluster.create(spark, "producer-static"));
    Dataset<org.apache.spark.sql.Row> df =
        spark.range(3).selectExpr("id", "CAST(id AS STRING) AS payload");

    String message =
        failure(
            () ->
                df.write()
                    .format("yt")
                    .option("producer_path", "//producer")
                    .mode("append")
                    .save("//out"));

    assertMentions(message, "option producer_path = '//producer' applies to streaming writes");
    assertEquals(List.of(), c.ids("//out"));
  }

  @Test
  void aNonDeterministicExpressionIsNamedInAWarning() throws Exception {
    TestCluster c = source(TestCluster.create(spark, "producer-uuid"));
    try (LogCapture warnings = new LogCapture("non-deterministic expressions")) {
      write(
          read().withColumn("payload", functions.expr("uuid()")),
          "//out",
          "//producer",
          "yt:///ckpt/uuid");
      List<String> found = warnings.leaks();
      assertEquals(1, found.size(), "one warning per query, not per batch: " + found);
      assertMentions(found.get(0), "[uuid()]", "repartition by it");
    }
    assertEquals(expected(), c.ids("//out"));
  }

  @Test
  void aDeterministicQueryGetsNoWarning() throws Exception {
    TestCluster c = source(TestCluster.create(spark, "producer-det"));
    try (LogCapture warnings = new LogCapture("non-deterministic expressions");
        LogCapture checked = new LogCapture("could not be read")) {
      write(
          read().withColumn("payload", functions.upper(functions.col("payload"))),
          "//out",
          "//producer",
          "yt:///ckpt/det");
      assertEquals(List.of(), warnings.leaks());
      assertEquals(List.of(), checked.leaks(), "the plan was read");
    }
    assertEquals(expected(), c.ids("//out"));
  }
}
