package io.ytstream.application.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RowsCarriedToNextTaskTest {

  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);

  private final RowsCarriedToNextTask carried = new RowsCarriedToNextTask();

  private static List<QueueRow> rows(int tablet, long from, int n) {
    List<QueueRow> rows = new java.util.ArrayList<>();
    for (long r = from; r < from + n; r++) {
      rows.add(new QueueRow(tablet, r, Row.of("v", r), OptionalLong.empty(), OptionalLong.empty()));
    }
    return rows;
  }

  @Test
  void rowsAreTakenOnceByTheSameReadAndPartition() {
    carried.keep("read-a", P0, rows(0, 5, 2), 1_000);

    assertEquals(List.of(), carried.take("read-b", P0, 1_001), "another query run's");
    assertEquals(List.of(), carried.take("read-a", P1, 1_001), "another partition's");
    assertEquals(rows(0, 5, 2), carried.take("read-a", P0, 1_001));
    assertEquals(List.of(), carried.take("read-a", P0, 1_002), "taken once");
  }

  @Test
  void rowsExpireAfterTheKeepTimeAndAnEmptyKeepClearsThePartition() {
    carried.keep("read-a", P0, rows(0, 5, 2), 0);
    assertEquals(
        List.of(), carried.take("read-a", P0, RowsCarriedToNextTask.KEEP_MS), "too old to serve");

    carried.keep("read-a", P0, rows(0, 5, 2), 0);
    carried.keep("read-a", P1, rows(1, 0, 1), RowsCarriedToNextTask.KEEP_MS + 1);
    assertEquals(1, carried.size(), "a keep drops what is older than the keep time");

    carried.keep("read-a", P1, List.of(), RowsCarriedToNextTask.KEEP_MS + 2);
    assertEquals(0, carried.size());
  }

  @Test
  void aStoppedReadForgetsOnlyItsOwnRows() {
    carried.keep("read-a", P0, rows(0, 0, 3), 0);
    carried.keep("read-b", P0, rows(0, 0, 2), 0);

    carried.forget("read-a");

    assertEquals(2, carried.size());
    assertEquals(rows(0, 0, 2), carried.take("read-b", P0, 1));
  }
}
