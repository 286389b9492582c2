package io.ytstream.benchmarks.spark;

import java.nio.file.Path;

/**
 * Sizes of one {@link PeerBench} run.
 *
 * @param rows the backlog, split evenly over the partitions
 * @param partitions Kafka partitions and queue tablets
 * @param batchRows rows per micro-batch for both sources (Kafka's {@code maxOffsetsPerTrigger}, the
 *     yt source's {@code max_rows_per_partition} times the partitions)
 * @param rounds measured rounds, each draining the backlog once from each source
 * @param warmup whether one unmeasured round runs first
 * @param out where {@code peer-table.md} is written
 */
record PeerBenchOptions(
    long rows, int partitions, long batchRows, int rounds, boolean warmup, Path out) {

  static final String USAGE =
      "usage: PeerBench [--rows N] [--partitions P] [--batch-rows N] [--rounds N] [--no-warmup]"
          + " [--out DIR]";

  PeerBenchOptions {
    if (batchRows < partitions) {
      throw new IllegalArgumentException(
          "--batch-rows must be at least --partitions ("
              + partitions
              + "), got "
              + batchRows
              + ". "
              + USAGE);
    }
    if (rows < partitions) {
      throw new IllegalArgumentException(
          "--rows must be at least --partitions (" + partitions + "), got " + rows + ". " + USAGE);
    }
  }

  static PeerBenchOptions parse(String... args) {
    long rows = 2_000_000;
    int partitions = 4;
    long batchRows = 500_000;
    int rounds = 3;
    boolean warmup = true;
    Path out = Path.of("benchmarks", "target", "peer");
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
        case "--rows" -> rows = positive(flag, value);
        case "--partitions" -> partitions = (int) positive(flag, value);
        case "--batch-rows" -> batchRows = positive(flag, value);
        case "--rounds" -> rounds = (int) positive(flag, value);
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown flag " + flag + ". " + USAGE);
      }
    }
    return new PeerBenchOptions(rows, partitions, batchRows, rounds, warmup, out);
  }

  long rowsPerPartition() {
    return rows / partitions;
  }

  /** The backlog as both sources hold it: a whole number of rows per partition. */
  long backlog() {
    return rowsPerPartition() * partitions;
  }

  long batchRowsPerPartition() {
    return batchRows / partitions;
  }

  private static long positive(String flag, String value) {
    long n;
    try {
      n = Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1 || n > Integer.MAX_VALUE && !flag.equals("--rows")) {
      throw new IllegalArgumentException(
          flag + " must be a whole number >= 1, got '" + value + "'. " + USAGE);
    }
    return n;
  }
}
