package io.ytstream.spark;

import io.ytstream.spark.config.YtSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The Spark side of {@link ProducerLargeShareTest}, in a JVM with a small heap: drains a queue's
 * whole backlog in one batch, one task, through the {@code yt} sink with {@code producer_path},
 * over HTTP, and prints {@code RESULT seconds=.. peakHeapMiB=.. maxHeapMiB=..} or {@code FAILED
 * <reason>}.
 *
 * <p>Arguments: proxy URL, rows (the batch cap and the per-tablet limit of one transaction).
 * Spark's minimum heap check is overridden with {@code spark.testing.memory} (what Spark's own
 * tests do), so Spark starts under a heap smaller than the 450 MiB it asks for.
 */
public final class LargeShareDrain {

  private LargeShareDrain() {}

  public static void main(String[] args) {
    String url = args[0];
    long rows = Long.parseLong(args[1]);
    SparkSession spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("ytstream-large-share")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "1")
            // Spark refuses to start below 450 MiB of heap; this is the check's own override (as
            // Spark's tests use it), so the heap stays what -Xmx says.
            .config("spark.testing.memory", Long.toString(471_859_200L))
            .config(YtSettings.PROXY, url)
            .config(YtSettings.MAX_ROWS_PER_TABLET, Long.toString(rows))
            .getOrCreate();
    int code = 0;
    try {
      long started = System.nanoTime();
      StreamingQuery query =
          spark
              .readStream()
              .format("yt")
              .option("consumer_path", LargeShareHost.CONSUMER)
              .option("max_rows_per_partition", Long.toString(rows))
              .load(LargeShareHost.QUEUE)
              .writeStream()
              .format("yt")
              .option("path", LargeShareHost.OUT)
              .option("producer_path", LargeShareHost.PRODUCER)
              .option("checkpointLocation", "yt:///ckpt/large-share")
              .trigger(Trigger.AvailableNow())
              .start();
      query.awaitTermination();
      System.out.printf(
          Locale.ROOT,
          "RESULT seconds=%.1f peakHeapMiB=%d maxHeapMiB=%d%n",
          (System.nanoTime() - started) / 1e9,
          peakHeapBytes() >> 20,
          Runtime.getRuntime().maxMemory() >> 20);
    } catch (Exception | OutOfMemoryError e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      System.out.println("FAILED " + root.getClass().getSimpleName() + ": " + root.getMessage());
      code = 1;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  /** The sum of the heap pools' peaks: at least the heap's peak use. */
  private static long peakHeapBytes() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
