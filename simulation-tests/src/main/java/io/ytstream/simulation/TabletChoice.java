package io.ytstream.simulation;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * How the job places each output row in the output's tablets, when a run has it choose: Spark's
 * {@code SinkRows.chosenTablet} reads a {@code $tablet_index} column or hashes the columns of
 * option {@code output_tablet_key} through core's {@link ChosenOutputTablet}, and the writers take
 * the result; without either the writers spread rows round-robin.
 */
enum TabletChoice {
  /** Neither: row k of task p on tablet (p + k) mod tablets. */
  ROUND_ROBIN,
  /** A {@code $tablet_index} column the query computes: the output value mod the tablets. */
  COLUMN,
  /** {@code output_tablet_key=v}: the output value hashed onto the tablets. */
  KEY;

  static final String TABLET_INDEX = "$tablet_index";
  static final List<String> KEY_COLUMNS = List.of("v");

  /** A seed's choice, from a stream of its own: each of the three in a third of the seeds. */
  static TabletChoice forSeed(long seed) {
    return values()[new SplittableRandom(seed * 223 + 19).nextInt(3)];
  }

  /**
   * Whether a workload's job may choose: an ordered output of a stateless query (an aggregate's
   * table has one tablet; the idempotent and static outputs have none to choose).
   */
  static boolean applies(Workload w) {
    return w.query() != QueryKind.AGGREGATE
        && (w.mode() == SimMode.TRANSACTIONAL
            || w.mode() == SimMode.AT_LEAST_ONCE
            || w.mode() == SimMode.PRODUCER);
  }

  /** The tablet the job names for {@code row}, as the Spark writers get it; empty: theirs. */
  OptionalInt chosen(Row row, int tablets) {
    return switch (this) {
      case ROUND_ROBIN -> OptionalInt.empty();
      case COLUMN ->
          OptionalInt.of(
              ChosenOutputTablet.named(TABLET_INDEX, askedFor(value(row), tablets), tablets));
      case KEY ->
          OptionalInt.of(ChosenOutputTablet.byKey(KEY_COLUMNS, List.of(value(row)), tablets));
    };
  }

  /** Each row's chosen tablet, -1 where the writer places it. */
  int[] chosen(List<Row> rows, int tablets) {
    int[] chosen = new int[rows.size()];
    for (int k = 0; k < chosen.length; k++) {
      chosen[k] = chosen(rows.get(k), tablets).orElse(-1);
    }
    return chosen;
  }

  /** The tablet at {@code chosen[k]}, as the writers take it. */
  static OptionalInt at(int[] chosen, int k) {
    return chosen[k] < 0 ? OptionalInt.empty() : OptionalInt.of(chosen[k]);
  }

  private static long value(Row row) {
    return (Long) row.get("v");
  }

  /** The {@code $tablet_index} value the query computes for output value {@code v}. */
  static long askedFor(long v, int tablets) {
    return Math.floorMod(v, (long) tablets);
  }
}
