package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtException;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.function.Executable;

/**
 * Base of every port contract: a fresh {@link ClusterFixture} per test and the helpers the
 * contracts share. An adapter runs a contract by subclassing it and implementing {@link
 * #newFixture()}.
 */
public abstract class PortContract {

  protected ClusterFixture fixture;

  /** A fresh fixture for one test. */
  protected abstract ClusterFixture newFixture();

  @BeforeEach
  final void openFixture() {
    fixture = newFixture();
  }

  @AfterEach
  final void closeFixture() {
    if (fixture != null) {
      fixture.close();
    }
  }

  protected YtCluster cluster() {
    return fixture.cluster();
  }

  protected YPath path(String name) {
    return fixture.root().child(name);
  }

  protected QueueId queueId(YPath path) {
    return new QueueId(cluster().name(), path);
  }

  protected ConsumerId consumerId(YPath path) {
    return new ConsumerId(cluster().name(), path);
  }

  protected void assume(ClusterFixture.Capability capability) {
    Assumptions.assumeTrue(
        fixture.supports(capability), "the fixture cannot do " + capability + "; skipped");
  }

  /**
   * Asserts that {@code call} fails with {@code code} (top level or inner) and returns the error.
   */
  protected static YtException assertYtError(int code, Executable call) {
    YtException error = assertThrows(YtException.class, call);
    assertTrue(
        error.hasCode(code),
        "expected error code " + code + ", got " + error.codes() + ": " + error);
    return error;
  }

  // ---- queues ----

  /** A queue with a string column {@code value}, plus a registered consumer. */
  protected record QueueSetup(QueueId queue, ConsumerId consumer) {
    public PartitionId partition(int index) {
      return new PartitionId(queue, index);
    }
  }

  protected QueueSetup queueWithConsumer(String name, int tabletCount) {
    YPath queue = path(name);
    YPath consumer = path(name + "_consumer");
    fixture.createOrderedTable(queue, List.of(Columns.value("value", "string")), tabletCount);
    fixture.createConsumer(consumer);
    fixture.registerConsumer(queue, consumer);
    return new QueueSetup(queueId(queue), consumerId(consumer));
  }

  /**
   * A queue {@code q} of one tablet and its consumer {@code c}, not registered, in a directory
   * whose one entry lets {@code reader} read: where the permission tests run.
   */
  protected QueueSetup queueReadableOnlyBy(String reader) {
    YPath dir = path("shared");
    fixture.createDirectory(
        dir,
        List.of(
            Map.of(
                "action", "allow", "subjects", List.of(reader), "permissions", List.of("read"))));
    YPath queue = dir.child("q");
    YPath consumer = dir.child("c");
    fixture.createOrderedTable(queue, List.of(Columns.value("value", "string")), 1);
    fixture.createConsumer(consumer);
    return new QueueSetup(queueId(queue), consumerId(consumer));
  }

  /** Registers the consumer of {@code setup} for its queue. */
  protected void register(QueueSetup setup) {
    fixture.registerConsumer(setup.queue().path(), setup.consumer().path());
  }

  /** The error names {@code user} and the missing {@code read}. */
  protected static void assertDeniedRead(String user, Exception error) {
    String message = String.valueOf(error.getMessage());
    assertTrue(
        message.contains("\"" + user + "\"") && message.contains("\"read\" permission"),
        "the error should name the user and read: " + message);
  }

  /** A row for tablet {@code tablet} of a queue made by {@link #queueWithConsumer}. */
  protected static Row queueRow(int tablet, String value) {
    return Row.of("$tablet_index", (long) tablet, "value", value);
  }

  /** Appends {@code count} rows {@code prefix0, prefix1, ...} to one tablet, in one transaction. */
  protected void appendValues(QueueId queue, int tablet, String prefix, int count) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(queueRow(tablet, prefix + i));
    }
    cluster().outputTables().append(queue.path(), rows);
  }

  /**
   * Reads a partition from {@code offset} to its end the way the core must: loop over short reads
   * until an empty one, checking that row indexes are contiguous.
   */
  protected List<QueueRow> pullToEnd(QueueSetup setup, int partition, long offset, int maxRows) {
    List<QueueRow> all = new ArrayList<>();
    long next = offset;
    for (int calls = 0; calls < 100_000; calls++) {
      List<QueueRow> batch =
          cluster().queueReader().pull(setup.consumer(), setup.partition(partition), next, maxRows);
      if (batch.isEmpty()) {
        return all;
      }
      for (QueueRow row : batch) {
        if (!all.isEmpty() || next != offset) {
          assertEquals(next, row.rowIndex(), "row indexes must be contiguous");
        }
        next = row.rowIndex() + 1;
        all.add(row);
      }
    }
    throw new AssertionError("pull never returned an empty batch");
  }

  protected static List<Object> values(List<QueueRow> rows) {
    List<Object> values = new ArrayList<>();
    rows.forEach(r -> values.add(r.data().get("value")));
    return values;
  }

  protected static List<Long> rowIndexes(List<QueueRow> rows) {
    List<Long> indexes = new ArrayList<>();
    rows.forEach(r -> indexes.add(r.rowIndex()));
    return indexes;
  }
}
