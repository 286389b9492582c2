package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The contract of {@code OutputTables}: one transaction per call, whole-table reads. */
public abstract class OutputTablesContract extends PortContract {

  private YPath sortedTable(String name) {
    YPath table = path(name);
    fixture.createSortedTable(
        table,
        List.of(
            Columns.key("k", "int64"), Columns.value("v", "string"), Columns.value("n", "int64")));
    return table;
  }

  @Test
  void appendThenReadAllInTabletAndRowOrder() {
    QueueSetup setup = queueWithConsumer("out", 2);
    YPath table = setup.queue().path();

    cluster().outputTables().append(table, List.of(queueRow(1, "b0"), queueRow(0, "a0")));
    cluster().outputTables().append(table, List.of(queueRow(0, "a1"), queueRow(1, "b1")));

    assertEquals(
        List.of(
            Row.of("value", "a0"),
            Row.of("value", "a1"),
            Row.of("value", "b0"),
            Row.of("value", "b1")),
        cluster().outputTables().readAll(table));
  }

  @Test
  void appendWithoutTabletIndexKeepsEveryRow() {
    QueueSetup setup = queueWithConsumer("out", 3);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      rows.add(Row.of("value", "r" + i));
    }

    cluster().outputTables().append(setup.queue().path(), rows);

    Set<Row> read = new HashSet<>(cluster().outputTables().readAll(setup.queue().path()));
    assertEquals(new HashSet<>(rows), read);
    long total =
        cluster().queueMetadata().partitions(setup.queue()).stream()
            .mapToLong(p -> p.totalRowCount())
            .sum();
    assertEquals(10, total);
  }

  @Test
  void upsertReplacesByKeyAndReadsInKeyOrder() {
    YPath table = sortedTable("sorted");

    cluster()
        .outputTables()
        .upsert(
            table,
            List.of(
                Row.of("k", 3L, "v", "c", "n", 3L),
                Row.of("k", 1L, "v", "a", "n", 1L),
                Row.of("k", 2L, "v", "b", "n", 2L)));
    cluster().outputTables().upsert(table, List.of(Row.of("k", 2L, "v", "B", "n", 20L)));

    assertEquals(
        List.of(
            Row.of("k", 1L, "v", "a", "n", 1L),
            Row.of("k", 2L, "v", "B", "n", 20L),
            Row.of("k", 3L, "v", "c", "n", 3L)),
        cluster().outputTables().readAll(table));
  }

  @Test
  void upsertWritesMissingColumnsAsNull() {
    YPath table = sortedTable("sorted");
    cluster().outputTables().upsert(table, List.of(Row.of("k", 1L, "v", "a", "n", 5L)));

    cluster().outputTables().upsert(table, List.of(Row.of("k", 1L, "v", "z")));

    Row row = cluster().outputTables().readAll(table).get(0);
    assertEquals("z", row.get("v"));
    assertEquals(null, row.get("n"), "without update mode, a missing column is written as null");
  }

  @Test
  void replayedUpsertIsIdempotent() {
    YPath table = sortedTable("sorted");
    List<Row> batch =
        List.of(Row.of("k", 1L, "v", "a", "n", 1L), Row.of("k", 2L, "v", "b", "n", 2L));

    cluster().outputTables().upsert(table, batch);
    cluster().outputTables().upsert(table, batch);

    assertEquals(batch, cluster().outputTables().readAll(table));
  }

  @Test
  void appendOverTheRowLimitFailsWith1717AndAppliesNothing() {
    QueueSetup setup = queueWithConsumer("out", 1);
    int limit = fixture.useRowLimitPerTablet(4);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i <= limit; i++) {
      rows.add(queueRow(0, "r" + i));
    }

    assertYtError(
        YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION,
        () -> cluster().outputTables().append(setup.queue().path(), rows));
    assertTrue(cluster().outputTables().readAll(setup.queue().path()).isEmpty());

    cluster().outputTables().append(setup.queue().path(), rows.subList(0, limit));
    assertEquals(limit, cluster().outputTables().readAll(setup.queue().path()).size());
  }

  @Test
  void upsertOverTheRowLimitFailsWith1717AndAppliesNothing() {
    YPath table = sortedTable("sorted");
    int limit = fixture.useRowLimitPerTablet(4);
    List<Row> rows = new ArrayList<>();
    for (long k = 0; k <= limit; k++) {
      rows.add(Row.of("k", k, "v", "x", "n", k));
    }

    assertYtError(
        YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION,
        () -> cluster().outputTables().upsert(table, rows));
    assertTrue(cluster().outputTables().readAll(table).isEmpty());
  }

  @Test
  void missingTableFailsWith500() {
    YPath absent = path("absent");

    assertYtError(
        YtErrorCode.RESOLVE_ERROR,
        () -> cluster().outputTables().append(absent, List.of(Row.of("value", "x"))));
    assertYtError(
        YtErrorCode.RESOLVE_ERROR,
        () -> cluster().outputTables().upsert(absent, List.of(Row.of("k", 1L))));
    assertYtError(YtErrorCode.RESOLVE_ERROR, () -> cluster().outputTables().readAll(absent));
  }
}
