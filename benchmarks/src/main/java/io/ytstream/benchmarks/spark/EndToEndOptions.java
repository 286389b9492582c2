package io.ytstream.benchmarks.spark;

import java.nio.file.Path;

/**
 * Sizes of one {@link EndToEndBench} run.
 *
 * @param rows the backlog, split evenly over the partitions
 * @param partitions Kafka partitions and queue tablets of the source (and of Kafka's output topic)
 * @param batchRows rows per micro-batch for every pipeline (Kafka's {@code maxOffsetsPerTrigger},
 *     the yt source's {@code max_rows_per_partition} times the partitions)
 * @param rounds measured rounds, each running every pipeline once over the whole backlog
 * @param warmup whether one unmeasured round runs first
 * @param out where {@code e2e-table.md} and {@code targets.md} are written
 */
record EndToEndOptions(
    long rows, int partitions, long batchRows, int rounds, boolean warmup, Path out) {

  static final String USAGE =
      "usage: EndToEndBench [--rows N] [--partitions P] [--batch-rows N] [--rounds N]"
          + " [--no-warmup] [--out DIR]";

  EndToEndOptions {
    if (rows < partitions) {
      throw new IllegalArgumentException(
          "--rows must be at least --partitions (" + partitions + "), got " + rows + ". " + USAGE);
    }
    if (batchRows < partitions) {
      throw new IllegalArgumentException(
          "--batch-rows must be at least --partitions ("
              + partitions
              + "), got "
              + batchRows
              + ". "
              + USAGE);
    }
  }

  static EndToEndOptions parse(String... args) {
    long rows = 2_000_000;
    int partitions = 4;
    long batchRows = 500_000;
    int rounds = 3;
    boolean warmup = true;
    Path out = Path.of("benchmarks", "target", "e2e");
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--no-warmup")) {
        warmup = false;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("flag " + flag + " needs a value. " + USAGE);
      }
      String value = args[++i];
      switch (flag) {
        case "--rows" -> rows = whole(flag, value, Integer.MAX_VALUE);
        case "--partitions" -> partitions = (int) whole(flag, value, 1_000);
        case "--batch-rows" -> batchRows = whole(flag, value, Integer.MAX_VALUE);
        case "--rounds" -> rounds = (int) whole(flag, value, 1_000);
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown flag " + flag + ". " + USAGE);
      }
    }
    return new EndToEndOptions(rows, partitions, batchRows, rounds, warmup, out);
  }

  long rowsPerPartition() {
    return rows / partitions;
  }

  /** The backlog as both servers hold it: a whole number of rows per partition. */
  long backlog() {
    return rowsPerPartition() * partitions;
  }

  long batchRowsPerPartition() {
    return batchRows / partitions;
  }

  /** The ids are checked in a bit set, so {@code --rows} stays within an int. */
  private static long whole(String flag, String value, long max) {
    long n;
    try {
      n = Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1 || n > max) {
      throw new IllegalArgumentException(
          flag + " must be a whole number from 1 to " + max + ", got '" + value + "'. " + USAGE);
    }
    return n;
  }
}
