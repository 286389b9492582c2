package io.ytstream.benchmarks.spark;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Sizes and choices of one {@link SparkBench} run.
 *
 * @param runs measured rounds per item (median [min–max] over them)
 * @param warmup whether each item first runs one unmeasured round (the first queries of a JVM pay
 *     for class loading and code generation)
 * @param items which of issue 8's items to run: 1 (with 2), 3, 4, 6
 * @param rows rows of items 1 and 2
 * @param partitions queue partitions of items 1–3 and 6
 * @param modeRows rows of item 3
 * @param batches measured batches of item 4 (after {@link #SKIPPED_BATCHES} unmeasured ones)
 * @param backlogRows the backlog of item 6
 * @param backlogHeap the child JVM's {@code -Xmx} for item 6
 * @param out where the table is written
 */
record SparkBenchOptions(
    int runs,
    boolean warmup,
    Set<Integer> items,
    long rows,
    int partitions,
    long modeRows,
    int batches,
    long backlogRows,
    String backlogHeap,
    Path out) {

  static final int SKIPPED_BATCHES = 10;

  static final String USAGE =
      "usage: SparkBench [--runs N] [--no-warmup] [--items 1,3,4,6] [--rows N] [--partitions P]"
          + " [--mode-rows N] [--batches N] [--backlog-rows N] [--backlog-heap 1g] [--out DIR]";

  static SparkBenchOptions defaults() {
    return new SparkBenchOptions(
        1,
        true,
        Set.of(1, 3, 4, 6),
        2_000_000,
        4,
        1_000_000,
        100,
        5_000_000,
        "1g",
        Path.of("benchmarks", "target", "spark"));
  }

  static SparkBenchOptions parse(String... args) {
    SparkBenchOptions o = defaults();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--no-warmup")) {
        o = o.with(o.runs, false, o.items, o.rows, o.modeRows, o.batches, o.backlogRows);
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("flag " + flag + " needs a value. " + USAGE);
      }
      String value = args[++i];
      switch (flag) {
        case "--runs" ->
            o =
                o.with(
                    (int) positive(flag, value),
                    o.warmup,
                    o.items,
                    o.rows,
                    o.modeRows,
                    o.batches,
                    o.backlogRows);
        case "--items" ->
            o =
                o.with(
                    o.runs, o.warmup, items(value), o.rows, o.modeRows, o.batches, o.backlogRows);
        case "--rows" ->
            o =
                o.with(
                    o.runs,
                    o.warmup,
                    o.items,
                    positive(flag, value),
                    o.modeRows,
                    o.batches,
                    o.backlogRows);
        case "--mode-rows" ->
            o =
                o.with(
                    o.runs,
                    o.warmup,
                    o.items,
                    o.rows,
                    positive(flag, value),
                    o.batches,
                    o.backlogRows);
        case "--batches" ->
            o =
                o.with(
                    o.runs,
                    o.warmup,
                    o.items,
                    o.rows,
                    o.modeRows,
                    (int) positive(flag, value),
                    o.backlogRows);
        case "--backlog-rows" ->
            o =
                o.with(
                    o.runs,
                    o.warmup,
                    o.items,
                    o.rows,
                    o.modeRows,
                    o.batches,
                    positive(flag, value));
        case "--partitions" ->
            o =
                new SparkBenchOptions(
                    o.runs,
                    o.warmup,
                    o.items,
                    o.rows,
                    (int) positive(flag, value),
                    o.modeRows,
                    o.batches,
                    o.backlogRows,
                    o.backlogHeap,
                    o.out);
        case "--backlog-heap" ->
            o =
                new SparkBenchOptions(
                    o.runs,
                    o.warmup,
                    o.items,
                    o.rows,
                    o.partitions,
                    o.modeRows,
                    o.batches,
                    o.backlogRows,
                    value,
                    o.out);
        case "--out" ->
            o =
                new SparkBenchOptions(
                    o.runs,
                    o.warmup,
                    o.items,
                    o.rows,
                    o.partitions,
                    o.modeRows,
                    o.batches,
                    o.backlogRows,
                    o.backlogHeap,
                    Path.of(value));
        default -> throw new IllegalArgumentException("unknown flag " + flag + ". " + USAGE);
      }
    }
    return o;
  }

  private SparkBenchOptions with(
      int runs,
      boolean warmup,
      Set<Integer> items,
      long rows,
      long modeRows,
      int batches,
      long backlogRows) {
    return new SparkBenchOptions(
        runs, warmup, items, rows, partitions, modeRows, batches, backlogRows, backlogHeap, out);
  }

  private static long positive(String flag, String value) {
    long n;
    try {
      n = Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1) {
      throw new IllegalArgumentException(
          flag + " must be a whole number >= 1, got '" + value + "'. " + USAGE);
    }
    return n;
  }

  private static Set<Integer> items(String value) {
    Set<Integer> items = new TreeSet<>();
    for (String part : value.split(",", -1)) {
      int item;
      try {
        item = Integer.parseInt(part.trim());
      } catch (NumberFormatException e) {
        item = -1;
      }
      if (!Set.of(1, 2, 3, 4, 6).contains(item)) {
        throw new IllegalArgumentException(
            "--items takes a comma list of 1, 2, 3, 4, 6 (2 runs with 1), got '"
                + value
                + "'. "
                + USAGE);
      }
      items.add(item == 2 ? 1 : item);
    }
    return items;
  }

  long rowsPerPartition() {
    return rows / partitions;
  }
}
