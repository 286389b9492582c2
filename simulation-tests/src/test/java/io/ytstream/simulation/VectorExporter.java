package io.ytstream.simulation;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.types.json.JsonWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Writes the golden vectors: for every kind in {@link CoreVectors#KINDS}, hand-picked edge cases
 * plus seeded random cases, each stored with the decision core-domain makes today; and a few
 * recorded simulation traces. Run with {@code exec:java
 * -Dexec.mainClass=io.ytstream.simulation.VectorExporter -Dexec.args=vectors}.
 */
public final class VectorExporter {

  static final QueueId Q1 = QueueId.of("primary", "//home/q1");
  static final QueueId Q2 = QueueId.of("primary", "//home/q2");
  private static final int RANDOM_CASES = 40;

  private VectorExporter() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "vectors");
    Files.createDirectories(dir);
    for (String kind : CoreVectors.KINDS) {
      Files.writeString(
          dir.resolve(kind + ".json"), fileText(vectorFile(kind)), StandardCharsets.UTF_8);
    }
    Path traces = dir.resolve("traces");
    Files.createDirectories(traces);
    for (TraceVectors.Case c : TraceVectors.CASES) {
      Files.writeString(
          traces.resolve(c.fileName()), fileText(TraceVectors.record(c)), StandardCharsets.UTF_8);
    }
  }

  /** A vector file's text: indented JSON (yt-types' one writer), ending with a newline. */
  static String fileText(Map<String, Object> file) {
    return JsonWriter.writeIndented(file) + "\n";
  }

  /** The whole file of one kind: its cases and their expected decisions. */
  static Map<String, Object> vectorFile(String kind) {
    List<Object> cases = new ArrayList<>();
    int n = 0;
    for (Map<String, Object> input : inputs(kind)) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("name", kind + "-" + n++);
      c.put("input", input);
      c.put("expected", CoreVectors.evaluate(kind, input));
      cases.add(c);
    }
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("kind", kind);
    file.put("version", 1L);
    file.put("cases", cases);
    return file;
  }

  static List<Map<String, Object>> inputs(String kind) {
    SplittableRandom random = new SplittableRandom(kind.hashCode());
    List<Map<String, Object>> list = new ArrayList<>();
    switch (kind) {
      case "batch_planner" -> {
        for (int i = 0; i < RANDOM_CASES; i++) {
          Map<QueueId, List<PartitionBounds>> bounds = randomBounds(random);
          Map<String, Object> in = new LinkedHashMap<>();
          in.put(
              "start",
              CoreVectors.offsetsJson(CoreVectors.offsets(randomOffsets(random, bounds, true))));
          in.put("bounds", CoreVectors.boundsJson(bounds));
          in.put("max_rows_per_partition", 1L + random.nextInt(30));
          in.put("data_loss_policy", random.nextBoolean() ? "FAIL" : "SKIP_AND_REPORT");
          list.add(in);
        }
      }
      case "start_offsets" -> {
        for (int i = 0; i < RANDOM_CASES; i++) {
          Map<QueueId, List<PartitionBounds>> bounds = randomBounds(random);
          Map<String, Object> in = new LinkedHashMap<>();
          in.put("checkpoint", random.nextInt(4) == 0 ? null : randomOffsets(random, bounds, true));
          in.put("consumer", randomOffsets(random, bounds, true));
          in.put("bounds", CoreVectors.boundsJson(bounds));
          list.add(in);
        }
      }
      case "commit_lag" -> {
        for (int i = 0; i < RANDOM_CASES; i++) {
          Map<QueueId, List<PartitionBounds>> bounds = randomBounds(random);
          Map<String, Object> in = new LinkedHashMap<>();
          in.put("durable_end", randomOffsets(random, bounds, true));
          in.put("consumer", randomOffsets(random, bounds, true));
          list.add(in);
        }
      }
      case "recovery_transactional" -> {
        for (int i = 0; i < RANDOM_CASES; i++) {
          int parts = 1 + random.nextInt(3);
          List<Object> ranges = new ArrayList<>();
          Map<String, Object> consumer = new LinkedHashMap<>();
          Map<String, Object> q = new LinkedHashMap<>();
          int style = random.nextInt(4); // 0 all lower, 1 all upper, 2 mixed, 3 elsewhere
          for (int p = 0; p < parts; p++) {
            long lower = random.nextInt(20);
            long upper = lower + 1 + random.nextInt(10);
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("queue", Q1.key());
            r.put("partition", (long) p);
            r.put("lower", lower);
            r.put("upper", upper);
            ranges.add(r);
            long at =
                switch (style) {
                  case 0 -> lower;
                  case 1 -> upper;
                  case 2 -> random.nextBoolean() ? lower : upper;
                  default -> random.nextInt(40);
                };
            if (at != 0 || random.nextBoolean()) {
              q.put(Long.toString(p), at);
            }
          }
          consumer.put(Q1.key(), q);
          Map<String, Object> in = new LinkedHashMap<>();
          in.put("ranges", ranges);
          in.put("consumer", consumer);
          list.add(in);
        }
      }
      case "recovery_out_of_transaction" -> {
        for (int i = 0; i < RANDOM_CASES; i++) {
          Map<QueueId, List<PartitionBounds>> bounds = randomBounds(random);
          Map<String, Object> in = new LinkedHashMap<>();
          in.put("mode", random.nextBoolean() ? "AT_LEAST_ONCE" : "IDEMPOTENT_RECEIVER");
          in.put("end", randomOffsets(random, bounds, true));
          in.put("consumer", randomOffsets(random, bounds, true));
          list.add(in);
        }
      }
      case "recovery_checkpoint" -> {
        Long[] values = {null, 0L, 1L, 2L, 5L, 6L, 7L};
        for (Long offsets : values) {
          for (Long commit : values) {
            Map<String, Object> in = new LinkedHashMap<>();
            in.put("latest_offsets", offsets);
            in.put("latest_commit", commit);
            list.add(in);
          }
        }
      }
      case "commit_outcome" -> {
        list.add(errorInput(null));
        for (String type : List.of("outcome_unknown", "transport_timeout", "transport_io")) {
          Map<String, Object> e = new LinkedHashMap<>();
          e.put("type", type);
          list.add(errorInput(e));
        }
        long[] codes = {
          1, 500, 501, 900, 901, 401, 429, 503, 1700, 1701, 1702, 1704, 1706, 1707, 1712, 1717,
          1725, 3100, 11000, 11003, 11004, 11005, 9999
        };
        for (long code : codes) {
          list.add(errorInput(ytError(code, List.of())));
          list.add(errorInput(ytError(1, List.of(code))));
        }
        // Most specific decision first: a fencing conflict wrapped in a retriable error.
        list.add(errorInput(ytError(1700, List.of(3100L))));
        list.add(errorInput(ytError(503, List.of(3100L))));
        list.add(errorInput(ytError(1717, List.of(1700L))));
        list.add(errorInput(ytError(1, List.of(11003L, 1700L))));
      }
      default -> throw new IllegalArgumentException(kind);
    }
    return list;
  }

  private static Map<String, Object> ytError(long code, List<Long> inner) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("type", "yt");
    e.put("code", code);
    e.put("inner_codes", new ArrayList<Object>(inner));
    return e;
  }

  private static Map<String, Object> errorInput(Map<String, Object> error) {
    Map<String, Object> in = new LinkedHashMap<>();
    in.put("error", error);
    return in;
  }

  private static Map<QueueId, List<PartitionBounds>> randomBounds(SplittableRandom random) {
    Map<QueueId, List<PartitionBounds>> bounds = new TreeMap<>();
    int queues = random.nextInt(4) == 0 ? 2 : 1;
    for (int q = 0; q < queues; q++) {
      List<PartitionBounds> parts = new ArrayList<>();
      int n = 1 + random.nextInt(5);
      for (int i = 0; i < n; i++) {
        long trimmed = random.nextInt(3) == 0 ? random.nextInt(20) : 0;
        parts.add(new PartitionBounds(i, trimmed, trimmed + random.nextInt(60)));
      }
      bounds.put(q == 0 ? Q1 : Q2, parts);
    }
    return bounds;
  }

  /** Offsets for some of the partitions, mostly inside the bounds, sometimes trimmed or beyond. */
  private static Map<String, Object> randomOffsets(
      SplittableRandom random, Map<QueueId, List<PartitionBounds>> bounds, boolean partial) {
    Map<String, Object> out = new LinkedHashMap<>();
    bounds.forEach(
        (q, parts) -> {
          Map<String, Object> m = new LinkedHashMap<>();
          for (PartitionBounds b : parts) {
            if (partial && random.nextInt(5) == 0) {
              continue;
            }
            long offset =
                switch (random.nextInt(8)) {
                  case 0 -> b.totalRowCount() + 1 + random.nextInt(5);
                  case 1 -> random.nextLong(b.trimmedRowCount() + 1);
                  default ->
                      b.trimmedRowCount()
                          + random.nextLong(b.totalRowCount() - b.trimmedRowCount() + 1);
                };
            m.put(Integer.toString(b.index()), offset);
          }
          if (!m.isEmpty()) {
            out.put(q.key(), m);
          }
        });
    return out;
  }
}
