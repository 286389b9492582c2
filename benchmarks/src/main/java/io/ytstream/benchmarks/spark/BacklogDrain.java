package io.ytstream.benchmarks.spark;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The child JVM of the memory benchmark ({@link BacklogBench} starts it with a small {@code -Xmx}):
 * drains a queue's backlog through the {@code yt} source and sink over HTTP, AvailableNow, and
 * prints one line {@code RESULT rows=.. batches=.. seconds=.. peakHeapMiB=.. maxHeapMiB=..}, or
 * {@code FAILED <reason>} with exit code 1. The token comes in the environment variable {@code
 * YT_TOKEN}, never on the command line.
 *
 * <pre>
 * BacklogDrain &lt;proxy url&gt; &lt;queue&gt; &lt;consumer&gt; &lt;output&gt; &lt;max_rows_per_partition&gt;
 *     &lt;transactional|at-least-once&gt; &lt;checkpoint&gt;
 * </pre>
 */
public final class BacklogDrain {

  private BacklogDrain() {}

  public static void main(String[] args) {
    if (args.length != 7) {
      System.out.println(
          "FAILED usage: BacklogDrain <proxy> <queue> <consumer> <output> <max_rows_per_partition>"
              + " <transactional|at-least-once> <checkpoint>");
      System.exit(2);
    }
    SparkSession spark = BenchSession.getOrCreate();
    int code = 0;
    try {
      spark.conf().set("spark.hadoop.yt.proxy", args[0]);
      String token = System.getenv("YT_TOKEN");
      if (token != null) {
        spark.conf().set("spark.hadoop.yt.token", token);
      }
      spark
          .conf()
          .set(
              "spark.yt.streaming.transactional",
              Boolean.toString(args[5].equals("transactional")));
      long started = System.nanoTime();
      StreamingQuery query =
          spark
              .readStream()
              .format("yt")
              .option("consumer_path", args[2])
              .option("max_rows_per_partition", args[4])
              .load(args[1])
              .selectExpr("id", "upper(payload) AS payload")
              .writeStream()
              .format("yt")
              .option("path", args[3])
              .option("checkpointLocation", args[6])
              .trigger(Trigger.AvailableNow())
              .start();
      query.awaitTermination();
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "RESULT rows=%d batches=%d seconds=%.1f peakHeapMiB=%d maxHeapMiB=%d%n",
          QueryFigures.rows(query),
          QueryFigures.dataBatches(query).size(),
          seconds,
          peakHeapBytes() >> 20,
          Runtime.getRuntime().maxMemory() >> 20);
    } catch (Exception | OutOfMemoryError e) {
      System.out.println("FAILED " + e.getClass().getSimpleName() + ": " + rootMessage(e));
      code = 1;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /** Sum of the heap pools' peak usage: an upper bound of the heap's peak. */
  static long peakHeapBytes() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    StringBuilder chain = new StringBuilder(String.valueOf(e.getMessage()));
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      chain.setLength(0);
      chain.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    String m = chain.toString().replace('\n', ' ');
    return m.length() > 600 ? m.substring(0, 600) + "..." : m;
  }
}
