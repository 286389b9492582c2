package io.ytstream.spark.config;

import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The options of the {@code yt} source and sink, validated with messages that name the option, the
 * value and the fix. Option names are matched case-insensitively (Spark lower-cases them).
 */
public final class YtOptions {

  public static final String PATH = "path";
  static final String PATHS = "paths";
  static final String CONSUMER_PATH = "consumer_path";
  static final String INCLUDE_SERVICE_COLUMNS = "include_service_columns";
  static final String MAX_ROWS_PER_PARTITION = "max_rows_per_partition";
  static final String FAIL_ON_DATA_LOSS = "fail_on_data_loss";
  public static final String PARSING_TYPE_V3 = "parsing_type_v3";
  public static final String WRITE_TYPE_V3 = "write_type_v3";
  static final String PROXY = "proxy";
  static final String CHECKPOINT_LOCATION = "checkpointLocation";

  /** Options ytstream itself reads. */
  static final Set<String> OWN =
      Set.of(
          PATH,
          CONSUMER_PATH,
          INCLUDE_SERVICE_COLUMNS,
          MAX_ROWS_PER_PARTITION,
          FAIL_ON_DATA_LOSS,
          PARSING_TYPE_V3,
          WRITE_TYPE_V3,
          PROXY);

  /** Options Spark itself passes along; never reported as unknown. */
  private static final Set<String> SPARK_OWN =
      Set.of("paths", "checkpointlocation", "queryname", "__path_param_name");

  private final Map<String, String> values;

  private YtOptions(Map<String, String> values) {
    this.values = values;
  }

  /**
   * Options from Spark's map (any case). An unknown name that is close to a known one is an error
   * that suggests the known one; other unknown names are left for Spark and other layers.
   */
  public static YtOptions of(Map<String, String> options) {
    TreeMap<String, String> lower = new TreeMap<>();
    options.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    for (String name : lower.keySet()) {
      if (OWN.contains(name) || SPARK_OWN.contains(name) || name.startsWith("spark.")) {
        continue;
      }
      Optional<String> suggestion = closest(name);
      if (suggestion.isPresent()) {
        throw new IllegalArgumentException(
            "unknown option '"
                + name
                + "' of the yt source/sink; did you mean '"
                + suggestion.get()
                + "'? Known options: "
                + new TreeSet<>(OWN));
      }
    }
    return new YtOptions(lower);
  }

  public Optional<String> get(String name) {
    String value = values.get(name.toLowerCase(Locale.ROOT));
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /** The queues to read: {@code load("//q")}, {@code load("//q1,//q2")} or batch multi-path. */
  public List<YPath> queuePaths() {
    List<String> raw = new ArrayList<>();
    get(PATHS).ifPresent(p -> raw.addAll(parseJsonStringArray(p)));
    get(PATH).ifPresent(p -> raw.addAll(List.of(p.split(","))));
    if (raw.isEmpty()) {
      throw new IllegalArgumentException(
          "no queue to read: give the queue path to load(), e.g."
              + " spark.readStream.format(\"yt\").option(\"consumer_path\", \"//c\").load(\"//q\")");
    }
    List<YPath> result = new ArrayList<>();
    for (String p : raw) {
      String trimmed = p.trim();
      if (!trimmed.isEmpty()) {
        YPath path = ypath(PATH, trimmed);
        if (!result.contains(path)) {
          result.add(path);
        }
      }
    }
    return result;
  }

  public YPath consumerPath() {
    return ypath(
        CONSUMER_PATH,
        get(CONSUMER_PATH)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "option consumer_path is missing: reading a queue needs a registered"
                            + " consumer, e.g. .option(\"consumer_path\", \"//home/consumer\")")));
  }

  public YPath outputPath() {
    return ypath(
        PATH,
        get(PATH)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "option path is missing: the yt sink needs the output table, e.g."
                            + " .option(\"path\", \"//home/out\") or .save(\"//home/out\")")));
  }

  public boolean includeServiceColumns() {
    return bool(INCLUDE_SERVICE_COLUMNS, false);
  }

  public boolean failOnDataLoss() {
    return bool(FAIL_ON_DATA_LOSS, true);
  }

  long maxRowsPerPartition() {
    Optional<String> raw = get(MAX_ROWS_PER_PARTITION);
    if (raw.isEmpty()) {
      return PlanLimits.DEFAULT_MAX_ROWS_PER_PARTITION;
    }
    long value;
    try {
      value = Long.parseLong(raw.get());
    } catch (NumberFormatException e) {
      value = 0;
    }
    if (value < 1) {
      throw new IllegalArgumentException(
          "option max_rows_per_partition must be a whole number >= 1, got '"
              + raw.get()
              + "'. Set it to the most rows one batch may read from one queue partition, e.g."
              + " 1000, or leave it unset for the default "
              + PlanLimits.DEFAULT_MAX_ROWS_PER_PARTITION);
    }
    return value;
  }

  public PlanLimits planLimits() {
    return PlanLimits.of(
        maxRowsPerPartition(),
        failOnDataLoss() ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT);
  }

  Optional<String> proxy() {
    return get(PROXY);
  }

  public Optional<String> checkpointLocation() {
    return get(CHECKPOINT_LOCATION);
  }

  private boolean bool(String name, boolean defaultValue) {
    Optional<String> raw = get(name);
    if (raw.isEmpty()) {
      return defaultValue;
    }
    String v = raw.get().toLowerCase(Locale.ROOT);
    if (v.equals("true")) {
      return true;
    }
    if (v.equals("false")) {
      return false;
    }
    throw new IllegalArgumentException(
        "option " + name + " must be true or false, got '" + raw.get() + "'");
  }

  private static YPath ypath(String option, String value) {
    try {
      return YPath.of(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "option " + option + " = '" + value + "' is not a Cypress path: " + e.getMessage(), e);
    }
  }

  /** Spark passes several paths as a JSON array of strings. */
  private static List<String> parseJsonStringArray(String json) {
    List<String> out = new ArrayList<>();
    String body = json.trim();
    if (!body.startsWith("[")) {
      out.add(body);
      return out;
    }
    StringBuilder current = null;
    for (int i = 1; i < body.length(); i++) {
      char c = body.charAt(i);
      if (current == null) {
        if (c == '"') {
          current = new StringBuilder();
        }
      } else if (c == '\\' && i + 1 < body.length()) {
        current.append(body.charAt(++i));
      } else if (c == '"') {
        out.add(current.toString());
        current = null;
      } else {
        current.append(c);
      }
    }
    return out;
  }

  /** The known option within edit distance 2 (or equal when separators are ignored), if any. */
  static Optional<String> closest(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String squashed = name.replace("_", "").replace("-", "").replace(".", "");
    for (String known : new TreeSet<>(OWN)) {
      int d = editDistance(name, known);
      if (squashed.equals(known.replace("_", ""))) {
        d = 0;
      }
      if (d < bestDistance) {
        bestDistance = d;
        best = known;
      }
    }
    int allowed = Math.min(3, Math.max(1, name.length() / 4));
    return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
