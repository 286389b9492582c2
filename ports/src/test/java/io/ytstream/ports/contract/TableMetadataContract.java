package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract of {@code TableMetadata}. */
public abstract class TableMetadataContract extends PortContract {

  @Test
  void describesAnOrderedTable() {
    YPath table = path("ordered");
    List<Column> columns = List.of(Columns.value("a", "int64"), Columns.value("b", "string"));
    fixture.createOrderedTable(table, columns, 3);

    TableDescription description = cluster().tableMetadata().describe(table);

    assertEquals(table, description.path());
    assertFalse(description.sorted());
    assertEquals(3, description.tabletCount());
    assertEquals(List.of("a", "b"), description.columns().stream().map(Column::name).toList());
    assertEquals("int64", description.columns().get(0).type());
    assertTrue(description.keyColumns().isEmpty());
  }

  @Test
  void describesASortedTableWithKeysInOrder() {
    YPath table = path("sorted");
    fixture.createSortedTable(
        table,
        List.of(
            Columns.key("tablet_idx", "int64"),
            Columns.key("row_idx", "int64"),
            Columns.value("payload", "string")));

    TableDescription description = cluster().tableMetadata().describe(table);

    assertTrue(description.sorted());
    assertEquals(
        List.of("tablet_idx", "row_idx"),
        description.keyColumns().stream().map(Column::name).toList());
    assertEquals(3, description.columns().size());
  }

  @Test
  void describesAConsumerWithTheConsumerSchema() {
    YPath consumer = path("consumer");
    fixture.createConsumer(consumer);

    TableDescription description = cluster().tableMetadata().describe(consumer);

    assertTrue(description.sorted());
    assertEquals(
        List.of("queue_cluster", "queue_path", "partition_index"),
        description.keyColumns().stream().map(Column::name).toList());
    assertTrue(description.columns().stream().anyMatch(c -> c.name().equals("offset")));
  }

  @Test
  void tabletCountFollowsReshard() {
    YPath table = path("ordered");
    fixture.createOrderedTable(table, List.of(Columns.value("a", "int64")), 1);

    fixture.reshard(table, 4);

    assertEquals(4, cluster().tableMetadata().describe(table).tabletCount());
  }

  @Test
  void missingTableFailsWith500() {
    assertYtError(
        YtErrorCode.RESOLVE_ERROR, () -> cluster().tableMetadata().describe(path("absent")));
  }
}
