package io.ytstream.benchmarks.latency;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command-line options of {@link LatencyBench}; see {@link #USAGE}. Every error names the option,
 * the value and what is accepted.
 */
record LatencyOptions(
    List<Integer> rates,
    List<Integer> triggerSeconds,
    List<String> backends,
    List<Variant> variants,
    int windowSeconds,
    int warmupSeconds,
    int partitions,
    int cores,
    int flushMs,
    int primeSeconds,
    int repeat,
    boolean emulatorOwnJvm,
    int keys,
    Path out) {

  static final List<String> BACKENDS = List.of("inmemory", "emulator");

  static final String USAGE =
      String.join(
          "\n",
          "usage: LatencyBench [options]   (the default is the short run: 1,000 rows/s, RealTime 5 s,",
          "                                  in-memory, every variant, 12 s measured)",
          "  --rates 1000,10000        rows per second appended to the queue (over all partitions)",
          "  --triggers 5,60           Real-time trigger durations in seconds (below 5 lowers",
          "                            spark.sql.streaming.realTimeMode.minBatchDuration)",
          "  --backends inmemory,emulator   in-memory cluster in-process, or the emulator over HTTP",
          "  --variants rt-exactly-once,rt-append,kafka-rt-append,micro-batch   (the default;",
          "                            kafka-rt-append: Spark's Kafka source from a broker in a JVM",
          "                            of its own, with the same writer as rt-append);",
          "                            rt-append-2-tasks: rt-append with the partitions read by 2",
          "                            tasks, e.g. --partitions 8 --cores 8 --variants",
          "                            rt-append,rt-append-2-tasks: 8 on 8 slots beside 8 on 2;",
          "                            floor-append, floor-exactly-once: the control, the writer",
          "                            fed directly (no source); rt-handoff, kafka-rt-handoff: the",
          "                            source alone, timed as Spark hands each row over (no write);",
          "                            rt-count, kafka-rt-count (Spark 4.3 only): groupBy(key).count()",
          "                            of each source, every update upserted by YtUpsertForeachWriter",
          "  --window S                seconds measured per variant (0 = 2 x trigger + 2; default 0)",
          "  --warmup S                seconds after the first row reached the sink (default 2)",
          "  --partitions N            queue partitions = real-time tasks but for rt-append-2-tasks",
          "                            (default 2)",
          "  --cores N                 local[N] task slots, at least the tasks of every variant",
          "                            (default 4)",
          "  --flush-ms N              the writers' flushInterval (default 5, the writers' default)",
          "  --prime S                 before each backend's first group, run every variant S seconds",
          "                            with 250 ms real-time batches and discard it (class loading,",
          "                            JIT of the batch-boundary code); default 0 = off",
          "  --repeat N                run each group N times, its variants interleaved (each round",
          "                            starting with the next variant); p50/p90/p99",
          "                            over the rows of all runs, max = the median of the runs' maxima",
          "                            (default 1)",
          "  --emulator-jvm shared|own the emulator in this JVM (default), or in a JVM of its own with",
          "                            the producers (the queue's and Kafka's), as a cluster runs",
          "                            apart from Spark",
          "  --keys N                  the stateful variants' keys, id % N: a multiple of --partitions,",
          "                            so that a key's rows come from one partition (default 100)",
          "  --out DIR                 latency-table.md and targets.md (default target/latency)");

  static LatencyOptions defaults() {
    return new LatencyOptions(
        List.of(1000),
        List.of(5),
        List.of("inmemory"),
        Variant.standard(),
        0,
        2,
        2,
        4,
        5,
        0,
        1,
        false,
        100,
        Path.of("target/latency"));
  }

  static LatencyOptions parse(String... args) {
    LatencyOptions d = defaults();
    List<Integer> rates = d.rates;
    List<Integer> triggers = d.triggerSeconds;
    List<String> backends = d.backends;
    List<Variant> variants = d.variants;
    int window = d.windowSeconds;
    int warmup = d.warmupSeconds;
    int partitions = d.partitions;
    int cores = d.cores;
    int flushMs = d.flushMs;
    int prime = d.primeSeconds;
    int repeat = d.repeat;
    boolean emulatorOwnJvm = d.emulatorOwnJvm;
    int keys = d.keys;
    Path out = d.out;
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (name.equals("--help") || name.equals("-h")) {
        throw new IllegalArgumentException(USAGE);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + name + " needs a value\n" + USAGE);
      }
      String v = args[++i];
      switch (name) {
        case "--rates" -> rates = positiveInts(name, v);
        case "--triggers" -> triggers = positiveInts(name, v);
        case "--backends" -> backends = backends(v);
        case "--variants" -> variants = variants(v);
        case "--window" -> window = positiveInt(name, v, 0);
        case "--warmup" -> warmup = positiveInt(name, v, 0);
        case "--partitions" -> partitions = positiveInt(name, v, 1);
        case "--cores" -> cores = positiveInt(name, v, 1);
        case "--flush-ms" -> flushMs = positiveInt(name, v, 0);
        case "--prime" -> prime = positiveInt(name, v, 0);
        case "--repeat" -> repeat = positiveInt(name, v, 1);
        case "--emulator-jvm" -> emulatorOwnJvm = either(name, v, "shared", "own");
        case "--keys" -> keys = positiveInt(name, v, 1);
        case "--out" -> out = Path.of(v);
        default ->
            throw new IllegalArgumentException("unknown option " + name + " " + v + "\n" + USAGE);
      }
    }
    int tasks = 0;
    boolean stateful = false;
    for (Variant v : variants) {
      tasks = Math.max(tasks, v.tasks(partitions));
      stateful |= v.stateful();
    }
    if (stateful && cores < partitions + LatencyBench.SHUFFLE_PARTITIONS) {
      throw new IllegalArgumentException(
          "--cores "
              + cores
              + " is below the "
              + (partitions + LatencyBench.SHUFFLE_PARTITIONS)
              + " tasks of a stateful variant at --partitions "
              + partitions
              + ": Real-time Mode runs the "
              + LatencyBench.SHUFFLE_PARTITIONS
              + " shuffle partitions' tasks beside the source's, one slot each; raise --cores");
    }
    if (stateful && keys % partitions != 0) {
      throw new IllegalArgumentException(
          "option --keys takes a multiple of --partitions "
              + partitions
              + " with a stateful variant (so that a key's rows all come from one partition, in"
              + " order), got '"
              + keys
              + "'");
    }
    if (cores < tasks) {
      throw new IllegalArgumentException(
          "--cores "
              + cores
              + " is below the "
              + tasks
              + " real-time tasks of --partitions "
              + partitions
              + ": Real-time Mode needs one task slot per task; raise --cores");
    }
    return new LatencyOptions(
        rates,
        triggers,
        backends,
        variants,
        window,
        warmup,
        partitions,
        cores,
        flushMs,
        prime,
        repeat,
        emulatorOwnJvm,
        keys,
        out);
  }

  /** Seconds measured for a trigger duration. */
  int windowFor(int triggerSeconds) {
    return windowSeconds > 0 ? windowSeconds : 2 * triggerSeconds + 2;
  }

  private static List<Integer> positiveInts(String name, String v) {
    List<Integer> out = new ArrayList<>();
    for (String s : v.split(",")) {
      out.add(positiveInt(name, s.trim(), 1));
    }
    return List.copyOf(out);
  }

  private static int positiveInt(String name, String v, int min) {
    try {
      int n = Integer.parseInt(v);
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "option " + name + " takes whole numbers of at least " + min + ", got '" + v + "'");
  }

  /** A two-valued option: false for {@code off}, true for {@code on}, else an error naming both. */
  private static boolean either(String name, String v, String off, String on) {
    if (v.equals(off)) {
      return false;
    }
    if (v.equals(on)) {
      return true;
    }
    throw new IllegalArgumentException(
        "option " + name + " takes " + off + " or " + on + ", got '" + v + "'");
  }

  private static List<String> backends(String v) {
    List<String> out = new ArrayList<>();
    for (String s : v.split(",")) {
      if (!BACKENDS.contains(s.trim())) {
        throw new IllegalArgumentException(
            "option --backends takes " + BACKENDS + ", got '" + s.trim() + "'");
      }
      out.add(s.trim());
    }
    return List.copyOf(out);
  }

  private static List<Variant> variants(String v) {
    List<Variant> out = new ArrayList<>();
    for (String s : v.split(",")) {
      Variant variant = Variant.parse(s.trim());
      if (out.contains(variant)) {
        // A variant named twice would run twice per round and pool both into one row.
        throw new IllegalArgumentException(
            "option --variants names "
                + variant.key
                + " twice in '"
                + v
                + "'; name each variant once");
      }
      out.add(variant);
    }
    return List.copyOf(out);
  }
}
