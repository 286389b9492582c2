package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ytstream.core.delivery.BatchShareDecision.Action;
import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The task writers with the tablet the job chose per row (by key here), over the in-memory cluster:
 * every row of a key lands in the key's tablet in its order, in every mode, and a replayed producer
 * share writes nothing twice.
 */
class ChosenTabletWritersTest {

  private static final YPath TABLE = YPath.of("//ordered");
  private static final YPath PRODUCER = YPath.of("//producer");
  private static final int TABLETS = 4;
  private static final List<String> KEY = List.of("user");

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  /** Row v of user v mod 5: five keys, rows of each in order. */
  private static String userOf(long v) {
    return "user-" + (v % 5);
  }

  private static int tabletOf(long v) {
    return ChosenOutputTablet.byKey(KEY, List.of(userOf(v)), TABLETS);
  }

  private static RowAtTablet row(long v) {
    return tablet -> Row.of("$tablet_index", (long) tablet, "user", userOf(v), "v", v);
  }

  private void createTable() {
    cluster.createOrderedTable(
        TABLE,
        List.of(new Column("user", "string", false, false), new Column("v", "int64", false, false)),
        TABLETS);
  }

  /** Per tablet, the users' values in the order the tablet holds them. */
  private TreeMap<Integer, List<Long>> byTablet() {
    TreeMap<Integer, List<Long>> out = new TreeMap<>();
    for (int t = 0; t < TABLETS; t++) {
      List<Long> values = new ArrayList<>();
      cluster.rows(TABLE, t, 0).forEach(r -> values.add((Long) r.get("v")));
      if (!values.isEmpty()) {
        out.put(t, values);
      }
    }
    return out;
  }

  /** What the key hash puts where for rows 0..n-1 of one task, in order. */
  private static TreeMap<Integer, List<Long>> expected(long n) {
    TreeMap<Integer, List<Long>> out = new TreeMap<>();
    for (long v = 0; v < n; v++) {
      out.computeIfAbsent(tabletOf(v), t -> new ArrayList<>()).add(v);
    }
    return out;
  }

  @Test
  void theKeysSpreadOverMoreThanOneTablet() {
    assertEquals(true, expected(20).size() > 1, "the test would show nothing on one tablet");
  }

  @Test
  void chunkedRowsLandInTheirKeysTabletsInOrder() {
    createTable();
    WriteChunk chunks = new WriteChunk(cluster.outputTables(), (a, o, e) -> {});
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, TABLE, false, 3, TABLETS, 3);
    for (long v = 0; v < 20; v++) {
      writer.writeTo(tabletOf(v), row(v));
    }
    writer.commit();

    assertEquals(expected(20), byTablet());
    long[] counts = new long[TABLETS];
    expected(20).forEach((t, vs) -> counts[t] = vs.size());
    assertArrayEquals(counts, writer.rowsPerTablet());
  }

  @Test
  void transactionalRowsAreInsertedIntoTheTabletsChosenWhenTheyCameIn() {
    createTable();
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    KeptLongs kept = new KeptLongs();
    TransactionalTaskWriter<Long> writer =
        new TransactionalTaskWriter<>(
            new InsertIntoBatchTransaction(cluster.transactions(), (t, e) -> {}),
            tx.id(),
            7,
            TABLE,
            false,
            2,
            TABLETS,
            3,
            1000,
            kept);
    for (long v = 0; v < 20; v++) {
      writer.writeTo(tabletOf(v), v);
    }
    WriterReport report =
        writer.commit(
            (v, tablet) -> Row.of("$tablet_index", (long) tablet, "user", userOf(v), "v", v),
            () -> {});
    tx.commit();

    assertEquals(expected(20), byTablet());
    long[] counts = new long[TABLETS];
    expected(20).forEach((t, vs) -> counts[t] = vs.size());
    assertArrayEquals(counts, report.rowsPerTablet(), "the driver's counts are the chosen ones");
  }

  private ProducerTaskWriter producer(int task, long batch) {
    return new ProducerTaskWriter(
        () -> new PushBatchShare(cluster.queueProducers(), cluster.transactions()),
        new ProducerTaskWriter.Share(
            PRODUCER,
            TABLE,
            "q",
            task,
            batch,
            TABLETS,
            3,
            1000,
            Optional.empty(),
            Duration.ofSeconds(30)));
  }

  @Test
  void aProducerShareLandsInTheKeysTabletsAndItsReplayAfterARestartWritesNothingTwice() {
    createTable();
    cluster.createQueueProducer(PRODUCER);

    // The first attempt pushes two chunks, then fails: nothing of it lands.
    ProducerTaskWriter failed = producer(1, 0);
    for (long v = 0; v < 7; v++) {
      failed.writeTo(tabletOf(v), row(v));
    }
    failed.abort();
    assertEquals(new TreeMap<>(), byTablet(), "an aborted share leaves nothing");

    ProducerTaskWriter first = producer(1, 0);
    for (long v = 0; v < 20; v++) {
      first.writeTo(tabletOf(v), row(v));
    }
    assertEquals(Action.PUSH, first.commit().orElseThrow().decision().action());
    assertEquals(expected(20), byTablet());

    // A restart replays batch 0 of the same query: the session holds it, nothing is pushed.
    ProducerTaskWriter replay = producer(1, 0);
    for (long v = 0; v < 20; v++) {
      replay.writeTo(tabletOf(v), row(v));
    }
    assertEquals(Action.ALREADY_PUSHED, replay.commit().orElseThrow().decision().action());
    assertEquals(expected(20), byTablet(), "every row once");

    ProducerTaskWriter next = producer(1, 1);
    for (long v = 20; v < 30; v++) {
      next.writeTo(tabletOf(v), row(v));
    }
    next.commit();
    TreeMap<Integer, List<Long>> all = new TreeMap<>();
    for (long v = 0; v < 30; v++) {
      all.computeIfAbsent(tabletOf(v), t -> new ArrayList<>()).add(v);
    }
    assertEquals(all, byTablet(), "the next batch follows each key's rows in its tablet");
  }

  @Test
  void aChosenTabletOutOfRangeOrOnASortedOutputIsABugOfTheEngineAndRefused() {
    createTable();
    WriteChunk chunks = new WriteChunk(cluster.outputTables(), (a, o, e) -> {});
    ChunkedTaskWriter ordered = new ChunkedTaskWriter(chunks, TABLE, false, 0, TABLETS, 3);
    assertThrows(IllegalArgumentException.class, () -> ordered.writeTo(TABLETS, row(0)));
    ChunkedTaskWriter sorted = new ChunkedTaskWriter(chunks, TABLE, true, 0, TABLETS, 3);
    assertThrows(IllegalStateException.class, () -> sorted.writeTo(0, row(0)));
    ordered.commit();
    assertEquals(new TreeMap<>(), byTablet(), "nothing written");
  }

  /** Keeps every row, as a task with room does. */
  private static final class KeptLongs implements TransactionalTaskWriter.KeptRows<Long> {
    private final List<Long> rows = new ArrayList<>();

    @Override
    public void add(Long row, long rowNumber) {
      rows.add(row);
    }

    @Override
    public void stop(String why, long rowNumber) {
      throw new AssertionError("not stopped in these tests: " + why);
    }

    @Override
    public String stoppedBecause() {
      return null;
    }

    @Override
    public long stoppedAtRow() {
      return 0;
    }

    @Override
    public List<Long> rows() {
      return rows;
    }

    @Override
    public void release() {
      rows.clear();
    }
  }
}
