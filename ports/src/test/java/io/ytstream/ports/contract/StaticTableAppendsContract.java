package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TableNodeSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@code StaticTableAppends}: rows appended to a static table and attributes set in
 * a master transaction are seen by that transaction only, land together at its commit, and are
 * dropped by an abort or an expired lease.
 */
public abstract class StaticTableAppendsContract extends PortContract {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String BATCHES = "ytstream_batches";

  private StaticTableAppends appends() {
    return cluster().staticTableAppends();
  }

  private YPath staticTable(String name) {
    YPath table = path(name);
    fixture.createStaticTable(
        table, List.of(Columns.value("k", "int64"), Columns.value("v", "string")));
    return table;
  }

  private static List<Row> rows(String prefix, int from, int count) {
    List<Row> rows = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      rows.add(Row.of("k", (long) i, "v", prefix + i));
    }
    return rows;
  }

  /** {@code count} rows made as they are asked for, as a sink's task hands them over. */
  private static Iterator<Row> generated(int count) {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < count;
      }

      @Override
      public Row next() {
        if (next >= count) {
          throw new NoSuchElementException();
        }
        int i = next++;
        return Row.of("k", (long) i, "v", "g" + i);
      }
    };
  }

  private static Map<String, Object> batches(String query, long batch) {
    Map<String, Object> value = new TreeMap<>();
    value.put(query, batch);
    return value;
  }

  @Test
  void appendedRowsLandAtCommitOnly() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);

    tx.append(table, rows("a", 0, 3).iterator());

    assertEquals(rows("a", 0, 3), tx.readAll(table), "the transaction sees its own appends");
    assertEquals(List.of(), appends().readAll(table), "nobody else sees them before the commit");
    MasterTransaction other = appends().start(TIMEOUT);
    assertEquals(List.of(), other.readAll(table), "another transaction does not see them");
    other.abort();

    tx.commit();

    assertEquals(rows("a", 0, 3), appends().readAll(table));
  }

  @Test
  void aNestedCommitLandsWithItsParentAndANestedAbortLeavesNothing() {
    YPath table = staticTable("nested");
    MasterTransaction batch = appends().start(TIMEOUT);
    MasterTransaction attached = appends().attach(batch.id());
    MasterTransaction kept = attached.startNested(TIMEOUT);
    kept.append(table, rows("kept", 0, 2).iterator());
    MasterTransaction dropped = attached.startNested(TIMEOUT);
    dropped.append(table, rows("dropped", 0, 3).iterator());
    kept.commit();
    dropped.abort();
    assertEquals(rows("kept", 0, 2), batch.readAll(table));
    assertEquals(List.of(), appends().readAll(table));
    batch.commit();
    assertEquals(rows("kept", 0, 2), appends().readAll(table));
  }

  @Test
  void aParentAbortDropsWhatItsNestedTransactionsCommitted() {
    YPath table = staticTable("nestedAbort");
    MasterTransaction batch = appends().start(TIMEOUT);
    MasterTransaction task = batch.startNested(TIMEOUT);
    task.append(table, rows("t", 0, 2).iterator());
    task.commit();
    batch.abort();
    assertEquals(List.of(), appends().readAll(table));
  }

  @Test
  void appendsFollowCommittedRowsInOrder() {
    YPath table = staticTable("t");
    MasterTransaction first = appends().start(TIMEOUT);
    first.append(table, rows("a", 0, 2).iterator());
    first.commit();

    MasterTransaction second = appends().start(TIMEOUT);
    second.append(table, rows("b", 2, 2).iterator());
    second.append(table, rows("c", 4, 1).iterator());
    List<Row> expected = new ArrayList<>(rows("a", 0, 2));
    expected.addAll(rows("b", 2, 2));
    expected.addAll(rows("c", 4, 1));
    assertEquals(expected, second.readAll(table));
    second.commit();

    assertEquals(expected, appends().readAll(table));
  }

  @Test
  void attributeSetWithTheAppendIsCommittedWithIt() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);
    tx.append(table, rows("a", 0, 2).iterator());
    tx.setAttribute(table, BATCHES, batches("query-1", 7L));

    assertEquals(Optional.of(batches("query-1", 7L)), tx.attribute(table, BATCHES));
    assertEquals(Optional.empty(), appends().attribute(table, BATCHES));

    tx.commit();

    assertEquals(Optional.of(batches("query-1", 7L)), appends().attribute(table, BATCHES));
    assertEquals(rows("a", 0, 2), appends().readAll(table));
  }

  @Test
  void attributeReadInATransactionSeesTheCommittedValueUntilItSetsItsOwn() {
    YPath table = staticTable("t");
    MasterTransaction first = appends().start(TIMEOUT);
    first.setAttribute(table, BATCHES, batches("q", 1L));
    first.commit();

    MasterTransaction second = appends().start(TIMEOUT);
    assertEquals(Optional.of(batches("q", 1L)), second.attribute(table, BATCHES));
    second.setAttribute(table, BATCHES, batches("q", 2L));
    assertEquals(Optional.of(batches("q", 2L)), second.attribute(table, BATCHES));
    assertEquals(Optional.of(batches("q", 1L)), appends().attribute(table, BATCHES));
    second.commit();

    assertEquals(Optional.of(batches("q", 2L)), appends().attribute(table, BATCHES));
  }

  @Test
  void scalarAndListAttributeValuesRoundTrip() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);
    tx.setAttribute(table, "last_batch", 42L);
    tx.setAttribute(table, "owner", "query-\u00e9");
    tx.setAttribute(table, "done", true);
    tx.setAttribute(table, "batches", List.of(1L, 2L, "three"));
    tx.commit();

    assertEquals(Optional.of(42L), appends().attribute(table, "last_batch"));
    assertEquals(Optional.of("query-\u00e9"), appends().attribute(table, "owner"));
    assertEquals(Optional.of(true), appends().attribute(table, "done"));
    assertEquals(Optional.of(List.of(1L, 2L, "three")), appends().attribute(table, "batches"));
    assertEquals(Optional.empty(), appends().attribute(table, "never_set"));
  }

  @Test
  void abortDropsAppendsAndAttributes() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);
    tx.append(table, rows("a", 0, 3).iterator());
    tx.setAttribute(table, BATCHES, batches("q", 3L));

    tx.abort();

    assertEquals(List.of(), appends().readAll(table));
    assertEquals(Optional.empty(), appends().attribute(table, BATCHES));
    tx.abort(); // a second abort is a no-op
    assertYtError(YtErrorCode.NO_SUCH_TRANSACTION, tx::commit);
  }

  @Test
  void aFinishedTransactionCannotBeUsed() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);
    tx.commit();

    assertYtError(
        YtErrorCode.NO_SUCH_TRANSACTION, () -> tx.append(table, rows("a", 0, 1).iterator()));
    assertYtError(YtErrorCode.NO_SUCH_TRANSACTION, () -> tx.setAttribute(table, BATCHES, 1L));
    assertEquals(List.of(), appends().readAll(table));
  }

  @Test
  void anAttachedHandleAppendsIntoTheSameTransaction() {
    YPath table = staticTable("t");
    MasterTransaction owner = appends().start(TIMEOUT);
    MasterTransaction attached = appends().attach(owner.id());
    assertEquals(owner.id(), attached.id());

    attached.append(table, rows("x", 0, 2).iterator());
    owner.append(table, rows("y", 2, 1).iterator());
    owner.setAttribute(table, BATCHES, batches("q", 0L));
    owner.commit();

    List<Row> expected = new ArrayList<>(rows("x", 0, 2));
    expected.addAll(rows("y", 2, 1));
    assertEquals(expected, appends().readAll(table));
    assertEquals(Optional.of(batches("q", 0L)), appends().attribute(table, BATCHES));
  }

  @Test
  void aLazilyMadeStreamOfRowsLandsWhole() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);

    tx.append(table, generated(5_000));
    tx.commit();

    List<Row> read = appends().readAll(table);
    assertEquals(5_000, read.size());
    assertEquals(Row.of("k", 0L, "v", "g0"), read.get(0));
    assertEquals(Row.of("k", 4_999L, "v", "g4999"), read.get(4_999));
  }

  @Test
  void anEmptyStreamAppendsNothingAndTheCommitStillWritesTheAttribute() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);
    tx.append(table, List.<Row>of().iterator());
    tx.setAttribute(table, BATCHES, batches("q", 9L));
    tx.commit();

    assertEquals(List.of(), appends().readAll(table));
    assertEquals(Optional.of(batches("q", 9L)), appends().attribute(table, BATCHES));
  }

  @Test
  void aRowOutsideTheStrictSchemaIsRefused() {
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(TIMEOUT);

    // 307, SchemaViolation (yt/yt/client/table_client/public.h; table_consumer.cpp).
    assertYtError(307, () -> tx.append(table, List.of(Row.of("k", 1L, "unknown", "x")).iterator()));
    // A value of the wrong type: the server's refusal, or the client's before it sends.
    assertThrows(
        RuntimeException.class,
        () -> tx.append(table, List.of(Row.of("k", "not a number", "v", "x")).iterator()));
    tx.abort();
    assertEquals(List.of(), appends().readAll(table));
  }

  @Test
  void describeSaysStaticAndGivesTheSchema() {
    YPath table = staticTable("t");
    QueueSetup queue = queueWithConsumer("q", 1);

    TableNodeSchema described = appends().describe(table);
    assertTrue(described.isStatic());
    assertEquals(
        List.of("k", "v"),
        described.schema().columns().stream().map(c -> c.name()).toList(),
        "the schema's columns in order");
    assertTrue(described.schema().strict());

    assertFalse(appends().describe(queue.queue().path()).isStatic());
    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> appends().describe(path("missing")));
  }

  @Test
  void aMissingTableIsAResolveError() {
    YPath missing = path("missing");
    MasterTransaction tx = appends().start(TIMEOUT);

    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> tx.append(missing, rows("a", 0, 1).iterator()));
    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> tx.setAttribute(missing, BATCHES, 1L));
    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> tx.attribute(missing, BATCHES));
    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> appends().attribute(missing, BATCHES));
    tx.abort();
  }

  @Test
  void describingADirectoryIsRefused() {
    YPath table = staticTable("t");
    assertThrows(YtException.class, () -> appends().describe(fixture.root()));
    assertTrue(appends().describe(table).isStatic());
  }

  @Test
  void appendingToADynamicTableIsRefused() {
    QueueSetup queue = queueWithConsumer("q", 1);
    MasterTransaction tx = appends().start(TIMEOUT);

    assertThrows(
        YtException.class,
        () -> tx.append(queue.queue().path(), List.of(Row.of("value", "x")).iterator()));
    tx.abort();
  }

  @Test
  void anExpiredLeaseDropsEverything() {
    assume(ClusterFixture.Capability.CONTROLLED_CLOCK);
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(Duration.ofSeconds(10));
    tx.append(table, rows("a", 0, 2).iterator());
    tx.setAttribute(table, BATCHES, batches("q", 1L));

    fixture.elapse(Duration.ofSeconds(11));

    assertYtError(YtErrorCode.NO_SUCH_TRANSACTION, tx::commit);
    assertEquals(List.of(), appends().readAll(table));
    assertEquals(Optional.empty(), appends().attribute(table, BATCHES));
  }

  @Test
  void pingsKeepTheLease() {
    assume(ClusterFixture.Capability.CONTROLLED_CLOCK);
    YPath table = staticTable("t");
    MasterTransaction tx = appends().start(Duration.ofSeconds(10));
    tx.append(table, rows("a", 0, 1).iterator());

    fixture.elapse(Duration.ofSeconds(7));
    tx.ping();
    fixture.elapse(Duration.ofSeconds(7));
    tx.ping();
    fixture.elapse(Duration.ofSeconds(7));
    tx.commit();

    assertEquals(rows("a", 0, 1), appends().readAll(table));
  }
}
