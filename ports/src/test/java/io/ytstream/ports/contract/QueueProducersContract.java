package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducerErrors;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@code QueueProducers}, following the server's own tests of it ({@code
 * yt/yt/tests/integration/queues/test_producer.py}) and its code. The tests of permissions follow
 * the native client's push and session calls, which check them before anything else ({@code
 * yt/yt/ytlib/api/native/transaction.cpp}, {@code TTransaction::DoPushQueueProducer}: {@code write}
 * on the producer, then on the queue, then {@code read} on the producer for the lookup of the
 * session row; {@code client_dynamic_tables_impl.cpp}, {@code DoCreateQueueProducerSession}: {@code
 * write} then {@code read} on the producer), so a denied push fails at the push, inside a
 * transaction too; and the master's permission checker, where a matching deny wins over any allow
 * ({@code yt/yt/server/lib/security_server/permission_checker-inl.h}).
 */
public abstract class QueueProducersContract extends PortContract {

  private QueueProducers producers() {
    return cluster().queueProducers();
  }

  /** A queue (one string column {@code value}) and a producer for it; session {@code s}. */
  private ProducerSessionId setUp(int tabletCount) {
    QueueSetup queue = queueWithConsumer("q", tabletCount);
    YPath producer = path("p");
    fixture.createQueueProducer(producer);
    return new ProducerSessionId(producer, queue.queue().path(), "s");
  }

  private static List<Row> values(String... values) {
    List<Row> rows = new ArrayList<>();
    for (String value : values) {
      rows.add(Row.of("value", value));
    }
    return rows;
  }

  private List<Object> queueValues(ProducerSessionId session) {
    List<Object> values = new ArrayList<>();
    cluster().outputTables().readAll(session.queue()).forEach(r -> values.add(r.get("value")));
    return values;
  }

  private long queueRowCount(ProducerSessionId session) {
    long rows = 0;
    for (PartitionBounds bounds : cluster().queueMetadata().partitions(queueId(session.queue()))) {
      rows += bounds.totalRowCount();
    }
    return rows;
  }

  // ---- sessions ----

  @Test
  void aNewSessionHasEpochZeroAndNoRows() {
    ProducerSessionId session = setUp(1);

    ProducerSession created = producers().createSession(session);

    assertEquals(new ProducerSession(0, -1, Optional.empty()), created);
  }

  @Test
  void creatingASessionAgainBumpsTheEpochAndKeepsNumberAndUserMeta() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session, Map.of("batch", 7L));
    producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a", "b")));

    ProducerSession again = producers().createSession(session);

    assertEquals(1, again.epoch());
    assertEquals(1, again.sequenceNumber());
    assertEquals(Optional.of(Map.of("batch", 7L)), again.userMeta());
    assertEquals(2, producers().createSession(session).epoch());
  }

  @Test
  void creatingWithUserMetaReplacesIt() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session, Map.of("file", "one"));

    ProducerSession again = producers().createSession(session, List.of(1L, 2L));

    assertEquals(Optional.of(List.of(1L, 2L)), again.userMeta());
  }

  @Test
  void removingASessionStartsItOverAtEpochZero() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session, "meta");
    producers().createSession(session);
    producers().push(ProducerPush.numberedFrom(session, 1, 0, values("a")));

    producers().removeSession(session);

    assertEquals(new ProducerSession(0, -1, Optional.empty()), producers().createSession(session));
  }

  @Test
  void sessionsAreSeparatePerIdAndQueue() {
    ProducerSessionId first = setUp(1);
    ProducerSessionId second = new ProducerSessionId(first.producer(), first.queue(), "other");
    producers().createSession(first);
    producers().createSession(first);

    assertEquals(0, producers().createSession(second).epoch());
    assertEquals(2, producers().createSession(first).epoch());
  }

  // ---- pushes ----

  @Test
  void aPushWritesItsRowsAndAReplayIsSkipped() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);

    PushResult first = producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a", "b")));
    PushResult replay =
        producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a", "b", "c")));

    assertEquals(new PushResult(1, 0), first);
    assertEquals(new PushResult(2, 2), replay);
    assertEquals(List.of("a", "b", "c"), queueValues(session));
    assertEquals(2, producers().createSession(session).sequenceNumber());
  }

  @Test
  void rowsMayCarryTheirOwnNumbersWithGaps() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);

    PushResult first =
        producers()
            .push(
                new ProducerPush(
                    session,
                    0,
                    OptionalLong.empty(),
                    List.of(
                        Row.of("value", "a", ProducerPush.SEQUENCE_NUMBER, 6L),
                        Row.of("value", "b", ProducerPush.SEQUENCE_NUMBER, 10L)),
                    Optional.empty()));
    PushResult second =
        producers()
            .push(
                new ProducerPush(
                    session,
                    0,
                    OptionalLong.empty(),
                    List.of(
                        Row.of("value", "b", ProducerPush.SEQUENCE_NUMBER, 10L),
                        Row.of("value", "c", ProducerPush.SEQUENCE_NUMBER, 14L)),
                    Optional.empty()));

    assertEquals(new PushResult(10, 0), first);
    assertEquals(new PushResult(14, 1), second);
    assertEquals(List.of("a", "b", "c"), queueValues(session));
  }

  @Test
  void rowsWithoutAnyNumberAreRefusedAndWriteNothing() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);

    assertYtError(
        QueueProducerErrors.INVALID_ROW_SEQUENCE_NUMBERS,
        () ->
            producers()
                .push(
                    new ProducerPush(
                        session, 0, OptionalLong.empty(), values("a"), Optional.empty())));

    assertEquals(0, queueRowCount(session));
    assertEquals(-1, producers().createSession(session).sequenceNumber());
  }

  @Test
  void numbersGivenBothWaysOrNotIncreasingAreRefused() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);

    assertYtError(
        QueueProducerErrors.INVALID_ROW_SEQUENCE_NUMBERS,
        () ->
            producers()
                .push(
                    ProducerPush.numberedFrom(
                        session,
                        0,
                        17,
                        List.of(Row.of("value", "a", ProducerPush.SEQUENCE_NUMBER, 17L)))));
    assertYtError(
        QueueProducerErrors.INVALID_ROW_SEQUENCE_NUMBERS,
        () ->
            producers()
                .push(
                    new ProducerPush(
                        session,
                        0,
                        OptionalLong.empty(),
                        List.of(
                            Row.of("value", "a", ProducerPush.SEQUENCE_NUMBER, 5L),
                            Row.of("value", "b", ProducerPush.SEQUENCE_NUMBER, 5L)),
                        Optional.empty())));
    assertYtError(
        QueueProducerErrors.INVALID_ROW_SEQUENCE_NUMBERS,
        () -> producers().push(ProducerPush.numberedFrom(session, 0, -1, values("a"))));

    assertEquals(0, queueRowCount(session));
  }

  @Test
  void skippedRowsAreStillCheckedAgainstTheQueueSchema() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);
    producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a")));

    assertThrows(
        YtException.class,
        () ->
            producers()
                .push(
                    ProducerPush.numberedFrom(
                        session, 0, 0, List.of(Row.of("value", "a", "nope", 1L)))));

    assertEquals(List.of("a"), queueValues(session));
  }

  @Test
  void anOlderEpochIsAZombieAndANewerOneIsInvalid() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);
    producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a")));

    assertYtError(
        QueueProducerErrors.INVALID_EPOCH,
        () -> producers().push(ProducerPush.numberedFrom(session, 1, 1, values("b"))));
    producers().createSession(session);
    assertYtError(
        QueueProducerErrors.ZOMBIE_EPOCH,
        () -> producers().push(ProducerPush.numberedFrom(session, 0, 1, values("b"))));
    PushResult current =
        producers().push(ProducerPush.numberedFrom(session, 1, 0, values("a", "b")));

    assertEquals(new PushResult(1, 1), current);
    assertEquals(List.of("a", "b"), queueValues(session));
  }

  @Test
  void aPushThroughAMissingSessionFails() {
    ProducerSessionId session = setUp(1);

    assertThrows(
        RuntimeException.class,
        () -> producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a"))));

    assertEquals(0, queueRowCount(session));
  }

  @Test
  void rowsGoToTheTabletTheyNameAndShareOneCounter() {
    ProducerSessionId session = setUp(2);
    producers().createSession(session);

    PushResult result =
        producers()
            .push(
                ProducerPush.numberedFrom(
                    session, 0, 0, List.of(queueRow(1, "one"), queueRow(0, "zero"))));

    assertEquals(new PushResult(1, 0), result);
    List<PartitionBounds> bounds = cluster().queueMetadata().partitions(queueId(session.queue()));
    assertEquals(1, bounds.get(0).totalRowCount());
    assertEquals(1, bounds.get(1).totalRowCount());
    assertEquals(List.of("zero", "one"), queueValues(session));
  }

  @Test
  void aPushStoresTheUserMetaItCarries() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session, Map.of("batch", 1L));

    producers()
        .push(
            ProducerPush.numberedFrom(session, 0, 0, values("a"))
                .withUserMeta(Map.of("batch", 2L, "offsets", List.of(10L, 20L))));

    assertEquals(
        Optional.of(Map.of("batch", 2L, "offsets", List.of(10L, 20L))),
        producers().createSession(session).userMeta());
  }

  @Test
  void aPushOverThePerTabletRowLimitFailsWhole() {
    assume(ClusterFixture.Capability.SMALL_ROW_LIMIT);
    ProducerSessionId session = setUp(1);
    int limit = fixture.useRowLimitPerTablet(2);
    producers().createSession(session);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i <= limit; i++) {
      rows.add(Row.of("value", "r" + i));
    }

    assertYtError(
        YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION,
        () -> producers().push(ProducerPush.numberedFrom(session, 0, 0, rows)));

    assertEquals(0, queueRowCount(session));
    assertEquals(-1, producers().createSession(session).sequenceNumber());
  }

  // ---- inside a tablet transaction ----

  @Test
  void pushesInATransactionAreInvisibleUntilItCommits() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);
    TabletTransaction transaction = cluster().transactions().start(Duration.ofSeconds(30));

    PushResult first =
        producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a")), transaction.id());
    producers().push(ProducerPush.numberedFrom(session, 0, 5, values("b")), transaction.id());

    assertEquals(new PushResult(0, 0), first);
    assertEquals(0, queueRowCount(session));
    transaction.commit();
    assertEquals(List.of("a", "b"), queueValues(session));
    assertEquals(5, producers().createSession(session).sequenceNumber());
  }

  @Test
  void anAbortedTransactionPushesNothing() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);
    TabletTransaction transaction = cluster().transactions().start(Duration.ofSeconds(30));
    producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a")), transaction.id());

    transaction.abort();

    assertEquals(0, queueRowCount(session));
    assertEquals(-1, producers().createSession(session).sequenceNumber());
  }

  @Test
  void twoTransactionsPushingThroughOneSessionConflict() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);
    TabletTransaction first = cluster().transactions().start(Duration.ofSeconds(30));
    TabletTransaction second = cluster().transactions().start(Duration.ofSeconds(30));
    producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a")), first.id());
    producers().push(ProducerPush.numberedFrom(session, 0, 0, values("a")), second.id());

    first.commit();
    assertYtError(YtErrorCode.TRANSACTION_LOCK_CONFLICT, second::commit);

    assertEquals(List.of("a"), queueValues(session));
    assertEquals(0, producers().createSession(session).sequenceNumber());
  }

  /**
   * Within one transaction the server keeps each session's last number ({@code
   * DoPushQueueProducer}): a second copy of a push through the same session in the same transaction
   * is validated against the first and skipped, not written twice.
   */
  @Test
  void aSecondCopyOfAPushInTheSameTransactionIsSkipped() {
    ProducerSessionId session = setUp(1);
    producers().createSession(session);
    TabletTransaction transaction = cluster().transactions().start(Duration.ofSeconds(30));

    PushResult first =
        producers()
            .push(ProducerPush.numberedFrom(session, 0, 0, values("a", "b")), transaction.id());
    PushResult again =
        producers()
            .push(ProducerPush.numberedFrom(session, 0, 0, values("a", "b")), transaction.id());
    PushResult more =
        producers()
            .push(ProducerPush.numberedFrom(session, 0, 1, values("b", "c")), transaction.id());
    transaction.commit();

    assertEquals(new PushResult(1, 0), first);
    assertEquals(new PushResult(1, 2), again);
    assertEquals(new PushResult(2, 1), more);
    assertEquals(List.of("a", "b", "c"), queueValues(session));
    assertEquals(2, producers().createSession(session).sequenceNumber());
  }

  /**
   * The session's queue is only part of its key: the server never resolves it ({@code
   * DoCreateQueueProducerSession}), so a session for a queue that does not exist is created.
   */
  @Test
  void aSessionForAQueueThatDoesNotExistIsCreated() {
    YPath producer = path("p");
    fixture.createQueueProducer(producer);
    ProducerSessionId session = new ProducerSessionId(producer, path("no-such-queue"), "s");

    ProducerSession created = producers().createSession(session);
    ProducerSession again = producers().createSession(session);

    assertEquals(new ProducerSession(0, -1, Optional.empty()), created);
    assertEquals(1, again.epoch());
  }

  // ---- permissions ----

  private static Map<String, Object> ace(String action, String subject, String... permissions) {
    return Map.of(
        "action", action, "subjects", List.of(subject), "permissions", List.of(permissions));
  }

  /**
   * A queue {@code dir/q} and a producer {@code producerDir/p}, made by the fixture's superuser.
   */
  private ProducerSessionId setUpIn(YPath queueDir, YPath producerDir) {
    YPath queue = queueDir.child("q");
    YPath producer = producerDir.child("p");
    fixture.createOrderedTable(queue, List.of(Columns.value("value", "string")), 1);
    fixture.createQueueProducer(producer);
    return new ProducerSessionId(producer, queue, "s");
  }

  private QueueProducers producersOf(String user) {
    return fixture.clusterAs(user).queueProducers();
  }

  private static void assertDeniedWrite(String user, YtException error) {
    assertDenied(user, "write", error);
  }

  private static void assertDenied(String user, String permission, YtException error) {
    String message = String.valueOf(error.getMessage());
    assertTrue(
        message.contains("\"" + user + "\"")
            && message.contains("\"" + permission + "\" permission"),
        "the error should name the user and the permission: " + message);
  }

  @Test
  void aPushByAUserNoEntryAllowsIsDeniedAndWritesNothing() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    YPath dir = path("shared");
    fixture.createDirectory(dir, List.of(ace("allow", "alice", "write")));
    ProducerSessionId session = setUpIn(dir, dir);
    producers().createSession(session);

    YtException denied =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () -> producersOf("bob").push(ProducerPush.numberedFrom(session, 0, 0, values("a"))));

    assertDeniedWrite("bob", denied);
    assertEquals(0, queueRowCount(session));
    assertEquals(-1, producers().createSession(session).sequenceNumber());
  }

  @Test
  void anAllowEntryOnAParentLetsTheUserPush() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    YPath dir = path("shared");
    fixture.createDirectory(dir, List.of(ace("allow", "alice", "write", "read")));
    ProducerSessionId session = setUpIn(dir, dir);
    producers().createSession(session);

    PushResult result =
        producersOf("alice").push(ProducerPush.numberedFrom(session, 0, 0, values("a", "b")));

    assertEquals(new PushResult(1, 0), result);
    assertEquals(List.of("a", "b"), queueValues(session));
  }

  @Test
  void aDenyEntryWinsOverAnAllowOne() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    YPath outer = path("outer");
    fixture.createDirectory(outer, List.of(ace("allow", "users", "write", "read")));
    YPath inner = outer.child("inner");
    fixture.createDirectory(inner, List.of(ace("deny", "alice", "write")));
    ProducerSessionId session = setUpIn(inner, inner);
    producers().createSession(session);

    YtException denied =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () -> producersOf("alice").push(ProducerPush.numberedFrom(session, 0, 0, values("a"))));
    PushResult allowed =
        producersOf("carol").push(ProducerPush.numberedFrom(session, 0, 0, values("c")));

    assertDeniedWrite("alice", denied);
    assertEquals(new PushResult(0, 0), allowed);
    assertEquals(List.of("c"), queueValues(session));
  }

  @Test
  void writeOnTheQueueAloneIsNotEnoughToPush() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    YPath queues = path("queues");
    fixture.createDirectory(queues, List.of(ace("allow", "alice", "write", "read")));
    YPath producers = path("producers");
    fixture.createDirectory(producers, List.of(ace("allow", "bob", "write", "read")));
    ProducerSessionId session = setUpIn(queues, producers);
    producers().createSession(session);

    YtException denied =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () -> producersOf("alice").push(ProducerPush.numberedFrom(session, 0, 0, values("a"))));

    assertDeniedWrite("alice", denied);
    assertEquals(0, queueRowCount(session));
  }

  /**
   * {@code write} on the producer and the queue is not enough: the push looks the session row up,
   * which needs {@code read} on the producer, and it fails at the push, writing nothing.
   */
  @Test
  void writeOnTheProducerWithoutReadIsNotEnoughToPush() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    YPath dir = path("shared");
    fixture.createDirectory(dir, List.of(ace("allow", "alice", "write")));
    ProducerSessionId session = setUpIn(dir, dir);
    producers().createSession(session);

    YtException denied =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () -> producersOf("alice").push(ProducerPush.numberedFrom(session, 0, 0, values("a"))));

    assertDenied("alice", "read", denied);
    assertEquals(0, queueRowCount(session));
  }

  /**
   * Permissions are checked before anything else, so a denied push inside a transaction fails at
   * the push, not at the commit; the transaction is still usable and commits what it holds.
   */
  @Test
  void aDeniedPushInATransactionFailsAtThePush() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    YPath dir = path("shared");
    fixture.createDirectory(dir, List.of(ace("allow", "alice", "write", "read")));
    ProducerSessionId session = setUpIn(dir, dir);
    producers().createSession(session);
    TabletTransaction transaction =
        fixture.clusterAs("bob").transactions().start(Duration.ofSeconds(30));

    YtException denied =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () ->
                producersOf("bob")
                    .push(ProducerPush.numberedFrom(session, 0, 0, values("a")), transaction.id()));
    transaction.commit();

    assertDeniedWrite("bob", denied);
    assertEquals(0, queueRowCount(session));
    assertEquals(-1, producers().createSession(session).sequenceNumber());
  }

  @Test
  void creatingASessionNeedsWriteAndReadOnTheProducer() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    YPath dir = path("shared");
    fixture.createDirectory(
        dir, List.of(ace("allow", "alice", "write", "read"), ace("allow", "carol", "write")));
    ProducerSessionId session = setUpIn(dir, dir);

    YtException noWrite =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR, () -> producersOf("bob").createSession(session));
    YtException noRead =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR, () -> producersOf("carol").createSession(session));
    ProducerSession created = producersOf("alice").createSession(session);

    assertDeniedWrite("bob", noWrite);
    assertDenied("carol", "read", noRead);
    assertEquals(new ProducerSession(0, -1, Optional.empty()), created);
  }
}
