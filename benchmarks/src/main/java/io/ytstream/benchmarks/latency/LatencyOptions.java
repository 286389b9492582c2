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
          "  --variants rt-exactly-once,rt-append,micro-batch,bare-rt",
          "  --window S                seconds measured per variant (0 = 2 x trigger + 2; default 0)",
          "  --warmup S                seconds after the first row reached the sink (default 2)",
          "  --partitions N            queue partitions = real-time tasks (default 2)",
          "  --cores N                 local[N] task slots, at least --partitions (default 4)",
          "  --flush-ms N              the writers' flushInterval (default 5, the writers' default)",
          "  --prime S                 before the first group, run every variant once for S seconds",
          "                            and discard it (class loading, JIT); default 0 = off",
          "  --out DIR                 table and SVG charts (default target/latency)");

  static LatencyOptions defaults() {
    return new LatencyOptions(
        List.of(1000),
        List.of(5),
        List.of("inmemory"),
        List.of(Variant.values()),
        0,
        2,
        2,
        4,
        5,
        0,
        Path.of("target/latency"));
  }

  static LatencyOptions parse(String... args) {
    LatencyOptions o = defaults();
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
        case "--rates" -> o = o.withRates(positiveInts(name, v));
        case "--triggers" -> o = o.withTriggers(positiveInts(name, v));
        case "--backends" -> o = o.withBackends(backends(v));
        case "--variants" -> o = o.withVariants(variants(v));
        case "--window" -> o = o.with(name, v, 0);
        case "--warmup" -> o = o.with(name, v, 0);
        case "--partitions" -> o = o.with(name, v, 1);
        case "--cores" -> o = o.with(name, v, 1);
        case "--flush-ms" -> o = o.with(name, v, 0);
        case "--prime" -> o = o.with(name, v, 0);
        case "--out" -> o = o.withOut(Path.of(v));
        default ->
            throw new IllegalArgumentException("unknown option " + name + " " + v + "\n" + USAGE);
      }
    }
    if (o.cores < o.partitions) {
      throw new IllegalArgumentException(
          "--cores "
              + o.cores
              + " is below --partitions "
              + o.partitions
              + ": Real-time Mode needs one task slot per partition; raise --cores");
    }
    return o;
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
      out.add(Variant.parse(s.trim()));
    }
    return List.copyOf(out);
  }

  private LatencyOptions with(String name, String v, int min) {
    int n = positiveInt(name, v, min);
    return new LatencyOptions(
        rates,
        triggerSeconds,
        backends,
        variants,
        name.equals("--window") ? n : windowSeconds,
        name.equals("--warmup") ? n : warmupSeconds,
        name.equals("--partitions") ? n : partitions,
        name.equals("--cores") ? n : cores,
        name.equals("--flush-ms") ? n : flushMs,
        name.equals("--prime") ? n : primeSeconds,
        out);
  }

  private LatencyOptions withRates(List<Integer> r) {
    return new LatencyOptions(
        r,
        triggerSeconds,
        backends,
        variants,
        windowSeconds,
        warmupSeconds,
        partitions,
        cores,
        flushMs,
        primeSeconds,
        out);
  }

  private LatencyOptions withTriggers(List<Integer> t) {
    return new LatencyOptions(
        rates,
        t,
        backends,
        variants,
        windowSeconds,
        warmupSeconds,
        partitions,
        cores,
        flushMs,
        primeSeconds,
        out);
  }

  private LatencyOptions withBackends(List<String> b) {
    return new LatencyOptions(
        rates,
        triggerSeconds,
        b,
        variants,
        windowSeconds,
        warmupSeconds,
        partitions,
        cores,
        flushMs,
        primeSeconds,
        out);
  }

  private LatencyOptions withVariants(List<Variant> v) {
    return new LatencyOptions(
        rates,
        triggerSeconds,
        backends,
        v,
        windowSeconds,
        warmupSeconds,
        partitions,
        cores,
        flushMs,
        primeSeconds,
        out);
  }

  private LatencyOptions withOut(Path p) {
    return new LatencyOptions(
        rates,
        triggerSeconds,
        backends,
        variants,
        windowSeconds,
        warmupSeconds,
        partitions,
        cores,
        flushMs,
        primeSeconds,
        p);
  }
}
