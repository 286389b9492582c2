package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The upsert writer's decisions: which tables and rows it takes, and that a replayed aggregate's
 * update rows, upserted through the writers' buffer, converge to the same table.
 */
class UpsertKeysTest {

  private static final String WRITER = "YtUpsertForeachWriter";
  private static final YPath COUNTS = YPath.of("//counts");
  private static final YPath ORDERED = YPath.of("//ordered");

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  UpsertKeysTest() {
    cluster.createSortedTable(
        COUNTS,
        List.of(new Column("k", "string", true, true), new Column("n", "int64", false, false)));
    cluster.createOrderedTable(ORDERED, List.of(new Column("k", "string", false, false)), 1);
  }

  private TableDescription describe(YPath path) {
    return cluster.tableMetadata().describe(path);
  }

  @Test
  void anOrderedTableIsRefusedNamingTheTableAndTheFix() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> UpsertKeys.checkTable(WRITER, describe(ORDERED)));
    assertTrue(e.getMessage().contains("//ordered"), e.getMessage());
    assertTrue(e.getMessage().contains("sorted dynamic table"), e.getMessage());
    assertTrue(e.getMessage().contains("YtAppendForeachWriter"), e.getMessage());
    UpsertKeys.checkTable(WRITER, describe(COUNTS));
  }

  @Test
  void aQueryWithoutAKeyColumnIsRefusedNamingTheColumn() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> UpsertKeys.checkColumns(WRITER, describe(COUNTS), List.of("n")));
    assertTrue(e.getMessage().contains("key column k of //counts"), e.getMessage());
    assertTrue(e.getMessage().contains("group by it"), e.getMessage());
    UpsertKeys.checkColumns(WRITER, describe(COUNTS), List.of("n", "k"));

    UpsertKeys keys = new UpsertKeys(WRITER, "//counts", List.of("k"));
    Map<String, Object> noKey = new LinkedHashMap<>(Map.of("n", 1L));
    assertThrows(IllegalArgumentException.class, () -> keys.keyed(noKey));
  }

  @Test
  void aReplayedAggregateConvergesToTheSameRows() {
    // Update rows of a count by key: batch 1, then batch 2, which fails halfway and is replayed
    // from batch 1's state, as Spark does after a restart.
    List<Map<String, Object>> batch1 = List.of(count("a", 1), count("b", 1), count("a", 2));
    List<Map<String, Object>> batch2 = List.of(count("b", 2), count("c", 1), count("a", 3));

    write(batch1);
    write(batch2.subList(0, 2)); // the task dies after two rows
    assertEquals(Map.of("a", 2L, "b", 2L, "c", 1L), table());
    write(batch2); // the replay

    Map<String, Long> once = new TreeMap<>(Map.of("a", 3L, "b", 2L, "c", 1L));
    assertEquals(once, table());
    write(batch2); // again: upsert by key is idempotent
    assertEquals(once, table());
  }

  private static Map<String, Object> count(String k, long n) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("k", k);
    row.put("n", n);
    return row;
  }

  private void write(List<Map<String, Object>> batch) {
    UpsertKeys keys = new UpsertKeys(WRITER, "//counts", List.of("k"));
    TableChunkBuffer rows =
        new TableChunkBuffer(
            new WriteChunk(cluster.outputTables(), WriteChunk.RetryListener.NONE), COUNTS, true);
    ForeachWriterBuffer buffer = new ForeachWriterBuffer(rows, 2, false, "writing to //counts");
    for (Map<String, Object> values : batch) {
      Row row = keys.keyed(new LinkedHashMap<>(values));
      buffer.add(() -> rows.add(row));
    }
    buffer.flush();
  }

  private Map<String, Long> table() {
    Map<String, Long> counts = new TreeMap<>();
    for (Row r : cluster.outputTables().readAll(COUNTS)) {
      counts.put((String) r.get("k"), (Long) r.get("n"));
    }
    return counts;
  }
}
