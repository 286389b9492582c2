package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.inmemory.AccessControlEntry;
import io.ytstream.spark.config.YtSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The permissions a producer-session job needs, as a real cluster checks them before anything else
 * ({@code yt/yt/ytlib/api/native/client_dynamic_tables_impl.cpp}, {@code
 * DoCreateQueueProducerSession}; {@code yt/yt/ytlib/api/native/transaction.cpp}, {@code
 * DoPushQueueProducer}): {@code read} and {@code write} on the producer, {@code write} on the
 * output queue ({@code read} on the source's consumer and queue for the reads). A job given only
 * {@code write} on the producer fails at its first push, told the user, the missing {@code read},
 * the producer's path and the entry to grant; nothing lands.
 */
class ProducerPermissionsTest {

  private static final String ROOT_TOKEN = "producer-acl-root-token-3e1f";
  private static final String JOB_TOKEN = "producer-acl-job-token-9b72";
  private static final YPath SOURCE_DIR = YPath.of("//source");
  private static final String QUEUE = "//source/q";
  private static final String CONSUMER = "//source/c";
  private static final YPath OUT_DIR = YPath.of("//out-dir");
  private static final YPath PRODUCER_DIR = YPath.of("//producers");
  private static final String PRODUCER = "//producers/p";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(
          EmulatorOptions.defaults().withToken(ROOT_TOKEN).withUser(JOB_TOKEN, "job"));

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.PROXY);
    spark.conf().unset(YtSettings.TOKEN);
  }

  /**
   * Source rows 0..4 in //source/q (read through //source/c), the output queue under //out-dir, the
   * producer under //producers; the job may read the source, write the output queue and do {@code
   * producerPermissions} on the producer.
   */
  private static EmulatorCluster setUp(YtEmulator emulator, String... producerPermissions) {
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.cluster.createMapNode(SOURCE_DIR);
    c.cluster.setAcl(SOURCE_DIR, List.of(AccessControlEntry.allow(List.of("job"), "read")));
    c.queue(QUEUE, 1).consumer(CONSUMER, QUEUE);
    c.produce(QUEUE, 0, 0, 5);
    c.cluster.createMapNode(OUT_DIR);
    c.cluster.setAcl(OUT_DIR, List.of(AccessControlEntry.allow(List.of("job"), "write")));
    c.orderedTable(OUT_DIR.child("out").value(), 1);
    c.cluster.createMapNode(PRODUCER_DIR);
    c.cluster.setAcl(
        PRODUCER_DIR, List.of(AccessControlEntry.allow(List.of("job"), producerPermissions)));
    c.cluster.createQueueProducer(YPath.of(PRODUCER));
    return c;
  }

  /** Runs the job as user "job" until it ends; its error, if it failed. */
  private Optional<Throwable> runAsJob(YtEmulator emulator, Path checkpoint) throws Exception {
    spark.conf().set(YtSettings.PROXY, emulator.url());
    spark.conf().set(YtSettings.TOKEN, JOB_TOKEN);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", CONSUMER)
            .load(QUEUE)
            .writeStream()
            .format("yt")
            .option("path", OUT_DIR.child("out").value())
            .option("producer_path", PRODUCER)
            .option("checkpointLocation", checkpoint.toUri().toString())
            .trigger(Trigger.AvailableNow())
            .start();
    try {
      q.awaitTermination();
    } catch (Exception e) {
      // the query's own error is read below
    } finally {
      q.stop();
    }
    return q.exception().isDefined() ? Optional.of(q.exception().get()) : Optional.empty();
  }

  private static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable e = t; e != null; e = e.getCause()) {
      all.append(e.getMessage()).append(" | ");
    }
    return all.toString();
  }

  @Test
  void aJobWithOnlyWriteOnTheProducerFailsAtItsFirstPushNamingTheMissingRead(
      YtEmulator emulator, @TempDir Path checkpoint) throws Exception {
    EmulatorCluster c = setUp(emulator, "write");

    Optional<Throwable> failed = runAsJob(emulator, checkpoint);

    assertTrue(failed.isPresent(), "the job must fail without read on the producer");
    String message = messages(failed.get());
    for (String part :
        List.of(
            "was refused: YTsaurus user \"job\"",
            "lacks the \"read\" permission on the producer " + PRODUCER,
            "permissions=[read]")) {
      assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
    }
    assertFalse(message.contains(JOB_TOKEN), "the token shows in: " + message);
    assertEquals(List.of(), c.ids(OUT_DIR.child("out").value()), "nothing landed");
    assertEquals(0, c.consumerTotal(CONSUMER, QUEUE), "the consumer did not move");
  }

  @Test
  void aJobWithReadAndWriteOnTheProducerAndWriteOnTheQueueWritesEachRowOnce(
      YtEmulator emulator, @TempDir Path checkpoint) throws Exception {
    EmulatorCluster c = setUp(emulator, "read", "write");

    Optional<Throwable> failed = runAsJob(emulator, checkpoint);

    assertTrue(failed.isEmpty(), () -> "the job failed: " + messages(failed.get()));
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), c.ids(OUT_DIR.child("out").value()));
    assertEquals(5, c.consumerTotal(CONSUMER, QUEUE));
  }
}
