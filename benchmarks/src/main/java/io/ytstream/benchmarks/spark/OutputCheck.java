package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import java.util.BitSet;
import java.util.List;

/**
 * What an end-to-end run left at its sink, checked against the {@link PeerRows} it read: how many
 * rows, how many distinct ids of {@code [0, expected)}, and how many rows repeat an id or carry one
 * outside that range. A run is correct when it wrote every id once; at-least-once may repeat ids.
 *
 * @param rows rows at the sink
 * @param distinct distinct ids of {@code [0, expected)} among them
 * @param duplicates rows whose id an earlier row already had
 * @param foreign rows whose id is not one the source held
 */
public record OutputCheck(long rows, long distinct, long duplicates, long foreign) {

  /** Reads every row of {@code table} (ordered or sorted) and counts its ids. */
  public static OutputCheck of(InMemoryCluster cluster, String table, long expected) {
    List<Row> written = cluster.outputTables().readAll(YPath.of(table));
    BitSet seen = new BitSet();
    long duplicates = 0;
    long foreign = 0;
    for (Row r : written) {
      long id = r.get("id") instanceof Number n ? n.longValue() : -1;
      if (id < 0 || id >= expected || id > Integer.MAX_VALUE) {
        foreign++;
      } else if (seen.get((int) id)) {
        duplicates++;
      } else {
        seen.set((int) id);
      }
    }
    return new OutputCheck(written.size(), seen.cardinality(), duplicates, foreign);
  }

  /** Parses {@link #toString()}'s line form, as {@code StoreMain} answers it. */
  public static OutputCheck parse(String line) {
    String[] f = line.trim().split(" ");
    return new OutputCheck(
        Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
  }

  /** The line {@code StoreMain} answers: rows, distinct, duplicates, foreign. */
  public String line() {
    return rows + " " + distinct + " " + duplicates + " " + foreign;
  }

  /** Every id of {@code [0, expected)} exactly once and nothing else. */
  public boolean exactlyOnce(long expected) {
    return rows == expected && distinct == expected && duplicates == 0 && foreign == 0;
  }
}
