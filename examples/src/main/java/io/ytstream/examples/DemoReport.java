package io.ytstream.examples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a demo run saw, and whether it passed: no mode may lose a row, the exactly-once modes may
 * not duplicate one, and after draining the consumer must stand where the checkpoint's last
 * committed batch ends, which is the end of the queue.
 *
 * @param mode the delivery mode
 * @param rowsIn rows the feeder appended to the queue
 * @param rowsOut rows in the output table
 * @param distinctOut distinct ids in the output table
 * @param duplicates output rows beyond the first of each id
 * @param lost ids fed but absent from the output
 * @param partitions per queue partition: end, consumer offset, checkpoint offset
 * @param restarts how many times the query was started again from its checkpoint
 * @param kills what took the query down, in order, with what happened
 * @param batches micro-batches with data, over every run of the query
 * @param warmupRows rows fed before the steady feed and read by the first (warm-up) batch
 * @param seconds wall time of the streaming phase: from the end of the first batch (when the steady
 *     feed starts) to the end of draining, kills and restarts included; Spark's start-up, the first
 *     query start and the first batch are not in it
 * @param processingRowsPerSecond Spark's own rate: input rows over the summed batch durations
 */
public record DemoReport(
    DemoOptions.DeliveryMode mode,
    long rowsIn,
    long rowsOut,
    long distinctOut,
    long duplicates,
    long lost,
    List<PartitionState> partitions,
    int restarts,
    List<String> kills,
    long batches,
    long warmupRows,
    double seconds,
    double processingRowsPerSecond) {

  /** One queue partition after draining. */
  public record PartitionState(int index, long queueEnd, long consumer, long checkpoint) {
    boolean consistent() {
      return consumer == checkpoint && checkpoint == queueEnd;
    }
  }

  public DemoReport {
    partitions = List.copyOf(partitions);
    kills = List.copyOf(kills);
  }

  /**
   * Throughput of the streaming phase: distinct rows written after the first batch, per second from
   * the end of the first batch to the end of draining (the feed rate bounds it).
   */
  public double rowsPerSecond() {
    return seconds <= 0 ? 0 : Math.max(0, distinctOut - warmupRows) / seconds;
  }

  public boolean offsetsConsistent() {
    return partitions.stream().allMatch(PartitionState::consistent);
  }

  /** Why the run failed; empty when it passed. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (lost > 0) {
      problems.add(lost + " rows lost");
    }
    if (mode.exactlyOnce() && duplicates > 0) {
      problems.add(duplicates + " duplicates in an exactly-once mode");
    }
    if (!offsetsConsistent()) {
      problems.add("consumer offsets do not match the checkpoint and the queue end");
    }
    return problems;
  }

  public boolean passed() {
    return problems().isEmpty();
  }

  public void print(PrintStream out) {
    out.println();
    out.printf(Locale.ROOT, "Verification (%s)%n", mode.flag());
    row(out, "rows in", Long.toString(rowsIn));
    row(out, "rows out", rowsOut + " (" + distinctOut + " distinct)");
    row(
        out,
        "duplicates",
        duplicates
            + (mode.exactlyOnce()
                ? (duplicates == 0 ? "  ok" : "  FAIL (exactly-once mode)")
                : (duplicates == 0
                    ? "  (at-least-once may duplicate; none this run)"
                    : "  expected in at-least-once: replayed batch written twice")));
    row(out, "lost", lost + (lost == 0 ? "  ok" : "  FAIL"));
    row(out, "restarts", Integer.toString(restarts));
    row(out, "batches", Long.toString(batches));
    row(
        out,
        "throughput",
        String.format(
            Locale.ROOT,
            "%,.0f rows/s in the streaming phase (%,d rows from the end of the first batch to"
                + " drained in %.1f s, kills and restarts included, Spark start-up not; bounded by"
                + " the feed rate), Spark processing %,.0f rows/s (rows over batch time)",
            rowsPerSecond(),
            Math.max(0, distinctOut - warmupRows),
            seconds,
            processingRowsPerSecond));
    out.println();
    out.printf(
        Locale.ROOT,
        "  %-9s  %10s  %10s  %10s  %s%n",
        "partition",
        "queue end",
        "consumer",
        "checkpoint",
        "");
    for (PartitionState p : partitions) {
      out.printf(
          Locale.ROOT,
          "  %-9d  %10d  %10d  %10d  %s%n",
          p.index(),
          p.queueEnd(),
          p.consumer(),
          p.checkpoint(),
          p.consistent() ? "ok" : "MISMATCH");
    }
    out.println();
    if (passed()) {
      out.println("RESULT: PASS");
    } else {
      out.println("RESULT: FAIL - " + String.join("; ", problems()));
    }
  }

  private static void row(PrintStream out, String name, String value) {
    out.printf(Locale.ROOT, "  %-12s %s%n", name, value);
  }
}
