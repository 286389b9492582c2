package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.Ledger;
import io.ytstream.simulation.check.Violations;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The stateful query's checkers on hand-made tables: one partition of six rows, values 0 to 5, so
 * keys 0 to 4 and key 0 twice (rows 0 and 5). Each property fails on a table that breaks it, and a
 * table that keeps them passes, so none is blind.
 */
class StatefulCheckersTest {

  private final Ledger ledger = new Ledger(1);
  private final Violations out = new Violations(line -> {});
  private final List<Long> lost = new ArrayList<>();
  private final StatefulOutput model = new StatefulOutput(ledger, out, (o, r) -> lost.contains(r));

  StatefulCheckersTest() {
    for (long v = 0; v < 6; v++) {
      ledger.produce(0, v);
    }
  }

  private void pulled(long from, long to) {
    List<QueueRow> rows = new ArrayList<>();
    for (long r = from; r < to; r++) {
      rows.add(
          new QueueRow(
              0, r, Row.of("k", r % 5, "v", r), OptionalLong.empty(), OptionalLong.empty()));
    }
    model.pulled(0, rows);
  }

  private void table(long key, long count) {
    model.read(new TableDelta(List.of(), List.of(Row.of("k", key, "count", count)), 1));
  }

  private List<String> violations() {
    return out.all().stream().map(v -> v.property().name()).toList();
  }

  @Test
  void aRecoveryBackToTheCheckpointKeepsEveryProperty() {
    pulled(0, 6);
    table(0, 1);
    model.committed(new long[] {1}); // the checkpoint counted row 0
    table(0, 2); // row 5, in a batch that does not commit
    table(0, 1); // the restart goes back to the checkpoint's count
    for (long k = 1; k < 5; k++) {
      table(k, 1);
    }
    table(0, 2);
    model.committed(new long[] {6});
    model.finish();
    assertEquals(List.of(), violations());
  }

  @Test
  void aCountBelowTheLastCheckpointIsCaught() {
    pulled(0, 6);
    table(0, 1);
    model.committed(new long[] {1});
    table(0, 0);
    assertEquals(List.of("CountBelowCheckpoint"), violations());
  }

  @Test
  void aCountAboveTheRowsReadIsCaught() {
    pulled(0, 5);
    table(0, 1);
    assertEquals(List.of(), violations());
    table(0, 2); // row 5, the key's second, not read yet
    assertEquals(List.of("Overcount"), violations());
  }

  @Test
  void aFinalTableOtherThanTheRecomputationIsCaught() {
    pulled(0, 6);
    for (long k = 0; k < 5; k++) {
      table(k, 1);
    }
    table(0, 2); // row 5 was read, but the last commit ends before it
    model.committed(new long[] {5});
    model.finish();
    assertEquals(List.of("RecomputationMismatch"), violations());
  }

  @Test
  void aRowReportedLostAfterARunPulledItMayBeCountedOrNot() {
    lost.add(5L);
    pulled(0, 6);
    for (long k = 0; k < 5; k++) {
      table(k, 1);
    }
    model.committed(new long[] {6});
    model.finish();
    table(0, 2);
    model.finish();
    table(0, 3);
    model.finish();
    assertEquals(List.of("Overcount", "RecomputationMismatch"), violations());
  }
}
