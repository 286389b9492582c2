package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.AccessControlEntry;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The producer calls and pulls against the rules the server's code has: a session creation whose
 * answer is lost is repeated with its {@code mutation_id} and costs no epoch ({@code
 * client_dynamic_tables_impl.cpp}, {@code DoCreateQueueProducerSession}); a job without {@code
 * read} on the producer fails at its first push, told what to grant ({@code transaction.cpp},
 * {@code DoPushQueueProducer}); pulls send a {@code data_weight_per_row_hint} ({@code
 * queue_rowset.cpp}, {@code ComputeRowsToRead}).
 */
class HttpQueueProducersServerRulesTest {

  private static final String ROOT_TOKEN = "root-secret-token";
  private static final String JOB_TOKEN = "job-secret-token";
  private static final YPath DIR = YPath.of("//home/team");
  private static final YPath QUEUE = DIR.child("q");
  private static final YPath PRODUCER = DIR.child("p");
  private static final ProducerSessionId SESSION = new ProducerSessionId(PRODUCER, QUEUE, "task-0");

  private static YtEmulator start() {
    return YtEmulator.start(
        EmulatorOptions.defaults().withToken(ROOT_TOKEN).withUser(JOB_TOKEN, "job"));
  }

  private static void setUp(YtEmulator emulator, AccessControlEntry... acl) {
    emulator.cluster().createMapNode(DIR);
    emulator.cluster().setAcl(DIR, List.of(acl));
    emulator
        .cluster()
        .createOrderedTable(QUEUE, List.of(new Column("value", "string", false, false)), 1);
    emulator.cluster().createQueueProducer(PRODUCER);
  }

  private static YtsaurusCluster connect(YtEmulator emulator, String token, List<String> log) {
    return YtsaurusCluster.connect(
        YtsaurusClientConfig.of(emulator.url(), Optional.of(OAuthToken.of(token)))
            .withRequestLogger(r -> log.add(r.command() + " " + r.parameters() + " " + r.line())));
  }

  @Test
  void aSessionCreationWhoseAnswerIsLostLeavesTheEpochWhereOneCreationWould() {
    try (YtEmulator emulator = start()) {
      setUp(emulator);
      List<String> log = new ArrayList<>();
      try (YtsaurusCluster cluster = connect(emulator, ROOT_TOKEN, log)) {
        // The creation is applied, then its answer is lost (the connection closes).
        emulator
            .cluster()
            .faults()
            .unknownOutcomeAfterApplying(ClusterOperation.PRODUCER_SESSION, 1);

        ProducerSession created = cluster.queueProducers().createSession(SESSION);
        ProducerSession next = cluster.queueProducers().createSession(SESSION);

        assertEquals(1, emulator.cluster().faults().firedCount(ClusterOperation.PRODUCER_SESSION));
        assertEquals(0, created.epoch(), "the repeat with the same mutation_id keeps the epoch");
        assertEquals(1, next.epoch(), "a new creation still takes the session over");
        List<String> creations =
            log.stream().filter(l -> l.startsWith("create_queue_producer_session")).toList();
        assertEquals(3, creations.size(), creations.toString());
        String id = mutationId(creations.get(0));
        assertTrue(MutationId.isGuid(id), id);
        assertEquals(id, mutationId(creations.get(1)), "the repeat carries the first id");
        assertTrue(creations.get(0).contains("\"retry\":false"), creations.get(0));
        assertTrue(creations.get(1).contains("\"retry\":true"), creations.get(1));
        assertFalse(id.equals(mutationId(creations.get(2))), "a new creation has a new id");
      }
    }
  }

  private static String mutationId(String logLine) {
    int at = logLine.indexOf("\"mutation_id\":\"") + "\"mutation_id\":\"".length();
    return logLine.substring(at, logLine.indexOf('"', at));
  }

  @Test
  void aJobWithOnlyWriteOnTheProducerFailsAtItsFirstPushNamingTheMissingRead() {
    try (YtEmulator emulator = start()) {
      setUp(emulator, AccessControlEntry.allow(List.of("job"), "write"));
      List<String> log = new ArrayList<>();
      try (YtsaurusCluster admin = connect(emulator, ROOT_TOKEN, new ArrayList<>());
          YtsaurusCluster job = connect(emulator, JOB_TOKEN, log)) {
        admin.queueProducers().createSession(SESSION);

        YtHttpException denied =
            assertThrows(
                YtHttpException.class,
                () ->
                    job.queueProducers()
                        .push(
                            ProducerPush.numberedFrom(
                                SESSION, 0, 0, List.of(Row.of("value", "a")))));

        String message = denied.getMessage();
        assertTrue(message.startsWith("push_queue_producer was refused"), message);
        assertTrue(message.contains("user \"job\""), message);
        assertTrue(message.contains("\"read\" permission on the producer " + PRODUCER), message);
        assertTrue(message.contains("permissions=[read]"), message);
        assertFalse(message.contains(JOB_TOKEN), message);
        assertFalse(log.toString().contains(JOB_TOKEN), log.toString());
        assertEquals(0, emulator.cluster().partitions(QUEUE).get(0).totalRowCount());
      }
    }
  }

  @Test
  void aSessionCreationWithoutReadOnTheProducerIsRefusedNamingIt() {
    try (YtEmulator emulator = start()) {
      setUp(emulator, AccessControlEntry.allow(List.of("job"), "write"));
      try (YtsaurusCluster job = connect(emulator, JOB_TOKEN, new ArrayList<>())) {
        YtHttpException denied =
            assertThrows(YtHttpException.class, () -> job.queueProducers().createSession(SESSION));

        String message = denied.getMessage();
        assertTrue(message.startsWith("create_queue_producer_session was refused"), message);
        assertTrue(message.contains("\"read\" permission on the producer " + PRODUCER), message);
        assertFalse(message.contains(JOB_TOKEN), message);
      }
    }
  }

  @Test
  void aJobWithReadAndWriteOnTheProducerAndWriteOnTheQueuePushes() {
    try (YtEmulator emulator = start()) {
      setUp(emulator, AccessControlEntry.allow(List.of("job"), "write", "read"));
      try (YtsaurusCluster job = connect(emulator, JOB_TOKEN, new ArrayList<>())) {
        job.queueProducers().createSession(SESSION);
        job.queueProducers()
            .push(ProducerPush.numberedFrom(SESSION, 0, 0, List.of(Row.of("value", "a"))));

        assertEquals(1, emulator.cluster().partitions(QUEUE).get(0).totalRowCount());
      }
    }
  }

  @Test
  void pullsSendAHintFromTheRowsOfTheLastAnswer() {
    try (YtEmulator emulator = start()) {
      setUp(emulator);
      YPath consumer = DIR.child("c");
      emulator.cluster().createConsumer(consumer);
      emulator.cluster().registerConsumer(QUEUE, consumer, false);
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        rows.add(Row.of("value", "0123456789"));
      }
      emulator.cluster().appendToTablet(QUEUE, 0, rows);
      List<String> log = new ArrayList<>();
      try (YtsaurusCluster cluster = connect(emulator, ROOT_TOKEN, log)) {
        ConsumerId c = new ConsumerId("emulator", consumer);
        PartitionId p = new PartitionId(new QueueId("emulator", QUEUE), 0);
        log.clear();

        assertEquals(2, cluster.queueReader().pull(c, p, 0, 2).size());
        assertEquals(2, cluster.queueReader().pull(c, p, 2, 1000).size());

        List<String> pulls = log.stream().filter(l -> l.startsWith("pull_queue_consumer")).toList();
        assertEquals(2, pulls.size(), pulls.toString());
        // First: 16 MiB / max_row_count, so all the rows asked for; then the rows' own weight:
        // 1 + $tablet_index 8 + $row_index 8 + 10 bytes of value.
        assertTrue(
            pulls.get(0).contains("\"data_weight_per_row_hint\":" + (16L << 20) / 2), pulls.get(0));
        assertTrue(pulls.get(1).contains("\"data_weight_per_row_hint\":27"), pulls.get(1));
      }
    }
  }
}
