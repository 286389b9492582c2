package io.ytstream.benchmarks.spark;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Sizes and choices of one {@link SparkBench} run.
 *
 * @param runs measured rounds per harness (median [min–max] over them)
 * @param warmup whether each harness first runs one unmeasured round (the first queries of a JVM
 *     pay for class loading and code generation)
 * @param benches which harnesses to run, of {@link #BENCHES}
 * @param rows rows of the read-path benchmark
 * @param partitions queue partitions of the read-path, modes and memory benchmarks
 * @param modeRows rows of the modes benchmark
 * @param batches measured batches of the batch-overhead benchmark (after {@link #SKIPPED_BATCHES}
 *     unmeasured ones)
 * @param backlogRows the backlog of the memory benchmark
 * @param backlogHeap the memory benchmark's child JVM {@code -Xmx}
 * @param out where the table is written
 */
record SparkBenchOptions(
    int runs,
    boolean warmup,
    Set<String> benches,
    long rows,
    int partitions,
    long modeRows,
    int batches,
    long backlogRows,
    String backlogHeap,
    Path out) {

  static final int SKIPPED_BATCHES = 10;

  static final String READ_PATH = "read-path";
  static final String MODES = "modes";
  static final String BATCH_OVERHEAD = "batch-overhead";
  static final String MEMORY = "memory";

  /** Every harness of {@link SparkBench}, in the order run. */
  static final List<String> BENCHES = List.of(READ_PATH, MODES, BATCH_OVERHEAD, MEMORY);

  static final String USAGE =
      "usage: SparkBench [--runs N] [--no-warmup] [--benches read-path,modes,batch-overhead,memory]"
          + " [--rows N] [--partitions P] [--mode-rows N] [--batches N] [--backlog-rows N]"
          + " [--backlog-heap 1g] [--out DIR]";

  static SparkBenchOptions defaults() {
    return parse();
  }

  static SparkBenchOptions parse(String... args) {
    int runs = 1;
    boolean warmup = true;
    Set<String> benches = new TreeSet<>(BENCHES);
    long rows = 2_000_000;
    int partitions = 4;
    long modeRows = 1_000_000;
    int batches = 100;
    long backlogRows = 5_000_000;
    String backlogHeap = "1g";
    Path out = Path.of("benchmarks", "target", "spark");
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
        case "--runs" -> runs = (int) positive(flag, value);
        case "--benches" -> benches = benches(value);
        case "--rows" -> rows = positive(flag, value);
        case "--partitions" -> partitions = (int) positive(flag, value);
        case "--mode-rows" -> modeRows = positive(flag, value);
        case "--batches" -> batches = (int) positive(flag, value);
        case "--backlog-rows" -> backlogRows = positive(flag, value);
        case "--backlog-heap" -> backlogHeap = value;
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown flag " + flag + ". " + USAGE);
      }
    }
    return new SparkBenchOptions(
        runs,
        warmup,
        Set.copyOf(benches),
        rows,
        partitions,
        modeRows,
        batches,
        backlogRows,
        backlogHeap,
        out);
  }

  boolean runs(String bench) {
    return benches.contains(bench);
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

  private static Set<String> benches(String value) {
    Set<String> benches = new TreeSet<>();
    for (String part : value.split(",", -1)) {
      String bench = part.trim();
      if (!BENCHES.contains(bench)) {
        throw new IllegalArgumentException(
            "--benches takes a comma list of " + BENCHES + ", got '" + value + "'. " + USAGE);
      }
      benches.add(bench);
    }
    return benches;
  }

  long rowsPerPartition() {
    return rows / partitions;
  }
}
