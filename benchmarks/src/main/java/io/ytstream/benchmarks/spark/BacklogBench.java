package io.ytstream.benchmarks.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The memory benchmark: a backlog drained by a Spark job with a small heap. This JVM runs an
 * emulator holding the backlog (so the rows do not count against the job's heap); each variant
 * starts {@link BacklogDrain} in a child JVM with {@code -Xmx<backlog-heap>} that reads the queue
 * over HTTP and writes an ordered output table of 8 tablets, then checks the output and the
 * consumer here.
 */
final class BacklogBench {

  /** One variant: a cap and a delivery mode. */
  record Variant(String label, long maxRowsPerPartition, String mode) {}

  /** What one child JVM did. */
  record Outcome(
      Variant variant,
      int exitCode,
      String result,
      long rowsOut,
      long consumerTotal,
      double seconds,
      List<String> errorTail) {

    boolean completed(long backlog) {
      return exitCode == 0 && rowsOut == backlog && consumerTotal == backlog;
    }
  }

  static final long UNCAPPED = 1_000_000_000L;
  private static final String QUEUE = "//backlog/queue";

  /** How long one child may run; the environment variable BACKLOG_CHILD_MINUTES overrides it. */
  private static final long DEFAULT_CHILD_MINUTES = 20;

  private final SparkBenchOptions options;
  private final PrintStream out;

  BacklogBench(SparkBenchOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * The variants to run: all, or those numbered (from 1) in the environment variable
   * BACKLOG_VARIANTS, e.g. {@code 1,3}, to measure one variant while iterating.
   */
  static List<Variant> selectedVariants() {
    String wanted = System.getenv("BACKLOG_VARIANTS");
    if (wanted == null || wanted.isBlank()) {
      return variants();
    }
    List<Variant> all = variants();
    List<Variant> chosen = new ArrayList<>();
    for (String part : wanted.split(",", -1)) {
      int k;
      try {
        k = Integer.parseInt(part.trim());
      } catch (NumberFormatException e) {
        k = -1;
      }
      if (k < 1 || k > all.size()) {
        throw new IllegalArgumentException(
            "BACKLOG_VARIANTS takes a comma list of 1.." + all.size() + ", got '" + wanted + "'");
      }
      chosen.add(all.get(k - 1));
    }
    return chosen;
  }

  private static long childMinutes() {
    String raw = System.getenv("BACKLOG_CHILD_MINUTES");
    if (raw == null || raw.isBlank()) {
      return DEFAULT_CHILD_MINUTES;
    }
    try {
      long minutes = Long.parseLong(raw.trim());
      if (minutes >= 1) {
        return minutes;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "BACKLOG_CHILD_MINUTES must be a whole number >= 1, got '" + raw + "'");
  }

  static List<Variant> variants() {
    return List.of(
        new Variant(
            "transactional, max_rows_per_partition=100000 (default)", 100_000, "transactional"),
        new Variant("transactional, uncapped", UNCAPPED, "transactional"),
        new Variant("at-least-once, uncapped", UNCAPPED, "at-least-once"));
  }

  List<Outcome> run(List<Variant> variants) throws IOException, InterruptedException {
    String token = UUID.randomUUID().toString();
    List<Outcome> outcomes = new ArrayList<>();
    try (YtEmulator emulator =
        YtEmulator.start(
            EmulatorOptions.defaults()
                .withToken(token)
                .withClusterName("backlog-" + token.substring(0, 8)))) {
      InMemoryCluster cluster = emulator.cluster();
      long perPartition = options.backlogRows() / options.partitions();
      long backlog = perPartition * options.partitions();
      out.printf(Locale.ROOT, "memory: filling a backlog of %,d rows%n", backlog);
      BenchQueues.queue(cluster, QUEUE, options.partitions(), perPartition);
      int k = 0;
      for (Variant v : variants) {
        k++;
        String consumer = BenchQueues.consumer(cluster, QUEUE, "//backlog/consumer-" + k);
        String output = "//backlog/out-" + k;
        cluster.createOrderedTable(YPath.of(output), BenchQueues.COLUMNS, 8);
        out.printf(Locale.ROOT, "memory: %s, -Xmx%s child JVM%n", v.label(), options.backlogHeap());
        long started = System.nanoTime();
        Child child =
            startChild(emulator.url(), token, consumer, output, v, "yt:///backlog/checkpoint-" + k);
        double seconds = (System.nanoTime() - started) / 1e9;
        long rowsOut = BenchQueues.trimAll(cluster, output);
        long consumed =
            cluster
                .consumerOffsets()
                .read(
                    new ConsumerId(cluster.name(), YPath.of(consumer)),
                    new QueueId(cluster.name(), YPath.of(QUEUE)))
                .total();
        Outcome o =
            new Outcome(v, child.exitCode, child.result, rowsOut, consumed, seconds, child.tail);
        out.printf(
            Locale.ROOT,
            "memory: exit %d, %s; rows out %,d, consumer at %,d of %,d, %.1f s%n",
            o.exitCode(),
            o.result(),
            rowsOut,
            consumed,
            backlog,
            seconds);
        outcomes.add(o);
      }
    }
    return outcomes;
  }

  private record Child(int exitCode, String result, List<String> tail) {}

  private Child startChild(
      String url, String token, String consumer, String output, Variant v, String checkpoint)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + options.backlogHeap());
    String extra = System.getenv("BACKLOG_CHILD_JAVA_OPTS");
    if (extra != null && !extra.isBlank()) {
      // e.g. -XX:StartFlightRecording=... to profile the drain
      command.addAll(List.of(extra.trim().split("\\s+")));
    }
    command.addAll(BenchSession.moduleOptions());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(BacklogDrain.class.getName());
    command.add(url);
    command.add(QUEUE);
    command.add(consumer);
    command.add(output);
    command.add(Long.toString(v.maxRowsPerPartition()));
    command.add(v.mode());
    command.add(checkpoint);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("YT_TOKEN", token);
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    File log =
        options
            .out()
            .resolve("backlog-" + v.mode() + "-" + v.maxRowsPerPartition() + ".log")
            .toFile();
    log.getParentFile().mkdirs();
    Process p = pb.start();
    String[] result = {"no RESULT line"};
    Deque<String> tail = new ArrayDeque<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                      new BufferedReader(
                          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                  PrintStream logOut = new PrintStream(log, StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) {
                  logOut.println(line);
                  synchronized (tail) {
                    if (line.startsWith("RESULT ") || line.startsWith("FAILED ")) {
                      result[0] = line;
                    }
                    if (line.contains("OutOfMemoryError") || line.contains("Exception")) {
                      tail.addLast(line.length() > 300 ? line.substring(0, 300) + "..." : line);
                      if (tail.size() > 5) {
                        tail.removeFirst();
                      }
                    }
                  }
                }
              } catch (IOException e) {
                // the child's output ended; its exit code says the rest
              }
            },
            "backlog-child-output");
    reader.setDaemon(true);
    reader.start();
    long minutes = childMinutes();
    if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      p.waitFor();
      reader.join(5_000);
      synchronized (tail) {
        return new Child(-1, "killed after " + minutes + " minutes", List.copyOf(tail));
      }
    }
    reader.join(10_000);
    synchronized (tail) {
      return new Child(p.exitValue(), result[0], List.copyOf(tail));
    }
  }
}
