package io.ytstream.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one demo run does: the delivery mode, how many rows to feed and how fast, how many queue
 * partitions, the seed of the feeder's partition choice, and which kills to perform mid-stream.
 *
 * @param mode the delivery mode of the query
 * @param rows rows the feeder appends in total
 * @param rowsPerSecond the feeder's steady rate
 * @param partitions queue partitions (tablets)
 * @param seed seeds the feeder's choice of partition for each row
 * @param kills the kills performed mid-stream, in order, spread evenly over the feed
 * @param maxRowsPerPartition the source's {@code max_rows_per_partition}
 */
public record DemoOptions(
    DeliveryMode mode,
    int rows,
    int rowsPerSecond,
    int partitions,
    long seed,
    List<Kill> kills,
    int maxRowsPerPartition) {

  /** The query's delivery mode, named as on the command line. */
  public enum DeliveryMode {
    TRANSACTIONAL("transactional", true),
    IDEMPOTENT("idempotent", true),
    AT_LEAST_ONCE("at-least-once", false),
    PRODUCER("producer", true);

    private final String flag;
    private final boolean exactlyOnce;

    DeliveryMode(String flag, boolean exactlyOnce) {
      this.flag = flag;
      this.exactlyOnce = exactlyOnce;
    }

    public String flag() {
      return flag;
    }

    public boolean exactlyOnce() {
      return exactlyOnce;
    }

    static DeliveryMode parse(String value) {
      for (DeliveryMode m : values()) {
        if (m.flag.equals(value.toLowerCase(Locale.ROOT))) {
          return m;
        }
      }
      throw new IllegalArgumentException(
          "--mode must be transactional, idempotent, at-least-once or producer, got " + value);
    }
  }

  /** How the query is taken down mid-stream before it is restarted from its checkpoint. */
  public enum Kill {
    /** {@code query.stop()} while the feeder keeps appending (a batch may be cut short). */
    STOP("stop", "query.stop() mid-stream"),
    /**
     * A write to the output table fails with an injected tablet error while a batch runs; the task
     * fails and Spark fails the query (local mode does not retry tasks).
     */
    FAULT("fault", "injected write fault: a task dies mid-batch, the query fails"),
    /**
     * The driver dies after the sink committed batch N but before Spark logged {@code commits/N}:
     * the query is stopped after a completed batch and the newest {@code commits/N} is deleted, so
     * the restart replays batch N.
     */
    CRASH("crash", "driver crash between sink commit and commits/N (commits/N removed)");

    private final String flag;
    private final String description;

    Kill(String flag, String description) {
      this.flag = flag;
      this.description = description;
    }

    public String flag() {
      return flag;
    }

    public String description() {
      return description;
    }

    static Kill parse(String value) {
      for (Kill k : values()) {
        if (k.flag.equals(value.trim().toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
      throw new IllegalArgumentException("--kills takes stop, fault and crash, got " + value);
    }
  }

  public DemoOptions {
    kills = List.copyOf(kills);
    if (rows < 1 || rowsPerSecond < 1 || partitions < 1 || maxRowsPerPartition < 1) {
      throw new IllegalArgumentException(
          "--rows, --rate, --partitions and --max-rows-per-partition must be >= 1");
    }
  }

  /** Transactional, 12,000 rows at 600 rows/s over 4 partitions, three kills. */
  public static DemoOptions defaults() {
    return new DemoOptions(
        DeliveryMode.TRANSACTIONAL,
        12_000,
        600,
        4,
        42,
        List.of(Kill.STOP, Kill.FAULT, Kill.CRASH),
        2_000);
  }

  public DemoOptions withMode(DeliveryMode newMode) {
    return new DemoOptions(
        newMode, rows, rowsPerSecond, partitions, seed, kills, maxRowsPerPartition);
  }

  public DemoOptions withRows(int newRows, int newRate) {
    return new DemoOptions(mode, newRows, newRate, partitions, seed, kills, maxRowsPerPartition);
  }

  public DemoOptions withKills(List<Kill> newKills) {
    return new DemoOptions(
        mode, rows, rowsPerSecond, partitions, seed, newKills, maxRowsPerPartition);
  }

  static final String USAGE =
      "usage: StreamingDemo [--mode transactional|idempotent|at-least-once|producer] [--rows N]"
          + " [--rate ROWS_PER_S]\n"
          + "                     [--partitions P] [--seed S] [--kills stop,fault,crash]"
          + " [--max-rows-per-partition M]";

  /** Parses the command line; unknown flags and bad values fail with the usage text. */
  public static DemoOptions parse(String... args) {
    DemoOptions o = defaults();
    DeliveryMode mode = o.mode;
    int rows = o.rows;
    int rate = o.rowsPerSecond;
    int partitions = o.partitions;
    long seed = o.seed;
    List<Kill> kills = o.kills;
    int maxRows = o.maxRowsPerPartition;
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.isBlank()) {
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(flag + " needs a value\n" + USAGE);
      }
      String value = args[++i];
      try {
        switch (flag) {
          case "--mode" -> mode = DeliveryMode.parse(value);
          case "--rows" -> rows = Integer.parseInt(value);
          case "--rate" -> rate = Integer.parseInt(value);
          case "--partitions" -> partitions = Integer.parseInt(value);
          case "--seed" -> seed = Long.parseLong(value);
          case "--max-rows-per-partition" -> maxRows = Integer.parseInt(value);
          case "--kills" -> {
            List<Kill> parsed = new ArrayList<>();
            if (!value.isBlank() && !value.equals("none")) {
              for (String k : value.split(",", -1)) {
                parsed.add(Kill.parse(k));
              }
            }
            kills = parsed;
          }
          default -> throw new IllegalArgumentException("unknown flag " + flag);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            flag + " needs a number, got " + value + "\n" + USAGE, e);
      }
    }
    try {
      return new DemoOptions(mode, rows, rate, partitions, seed, kills, maxRows);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + "\n" + USAGE, e);
    }
  }
}
