package io.ytstream.spark.config;

import io.ytstream.application.offsets.StartingOffsetsText;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TaskSplit;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.types.json.JsonReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.network.util.JavaUtils;

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
  static final String MAX_ROWS_PER_TRIGGER = "max_rows_per_trigger";
  static final String MIN_ROWS_PER_TRIGGER = "min_rows_per_trigger";
  static final String MAX_TRIGGER_DELAY = "max_trigger_delay";
  static final String MAX_BYTES_PER_TRIGGER = "max_bytes_per_trigger";
  static final String MAX_BYTES_PER_PARTITION = "max_bytes_per_partition";
  static final String MIN_TASKS = "min_tasks";
  static final String MAX_ROWS_PER_TASK = "max_rows_per_task";
  static final String FAIL_ON_DATA_LOSS = "fail_on_data_loss";
  static final String REAL_TIME_PARTITIONS_PER_TASK = "real_time_partitions_per_task";
  static final String STARTING_OFFSETS = "starting_offsets";
  static final String ENDING_OFFSETS = "ending_offsets";
  static final String STARTING_TIMESTAMP = "starting_timestamp";
  static final String ENDING_TIMESTAMP = "ending_timestamp";
  public static final String PARSING_TYPE_V3 = "parsing_type_v3";
  public static final String WRITE_TYPE_V3 = "write_type_v3";
  static final String PRODUCER_PATH = "producer_path";
  public static final String OUTPUT_TABLET_KEY = "output_tablet_key";
  static final String PROXY = "proxy";
  static final String CHECKPOINT_LOCATION = "checkpointLocation";

  /** Options ytstream itself reads, and where each applies. */
  static final Map<String, OptionScope> OWN =
      Map.ofEntries(
          Map.entry(PATH, OptionScope.BOTH),
          Map.entry(PROXY, OptionScope.BOTH),
          Map.entry(CONSUMER_PATH, OptionScope.READ),
          Map.entry(INCLUDE_SERVICE_COLUMNS, OptionScope.READ),
          Map.entry(MAX_ROWS_PER_PARTITION, OptionScope.READ),
          Map.entry(MAX_ROWS_PER_TRIGGER, OptionScope.READ),
          Map.entry(MIN_ROWS_PER_TRIGGER, OptionScope.READ),
          Map.entry(MAX_TRIGGER_DELAY, OptionScope.READ),
          Map.entry(MAX_BYTES_PER_TRIGGER, OptionScope.READ),
          Map.entry(MAX_BYTES_PER_PARTITION, OptionScope.READ),
          Map.entry(MIN_TASKS, OptionScope.READ),
          Map.entry(MAX_ROWS_PER_TASK, OptionScope.READ),
          Map.entry(FAIL_ON_DATA_LOSS, OptionScope.READ),
          Map.entry(REAL_TIME_PARTITIONS_PER_TASK, OptionScope.READ),
          Map.entry(STARTING_OFFSETS, OptionScope.READ),
          Map.entry(ENDING_OFFSETS, OptionScope.READ),
          Map.entry(STARTING_TIMESTAMP, OptionScope.READ),
          Map.entry(ENDING_TIMESTAMP, OptionScope.READ),
          Map.entry(PARSING_TYPE_V3, OptionScope.READ),
          Map.entry(WRITE_TYPE_V3, OptionScope.WRITE),
          Map.entry(PRODUCER_PATH, OptionScope.WRITE),
          Map.entry(OUTPUT_TABLET_KEY, OptionScope.WRITE));

  /**
   * Options Spark itself puts into a source's or sink's map (Spark 4.2): {@code path} from {@code
   * load(path)} / {@code save(path)} / {@code start(path)}, {@code paths} from {@code load(p1,
   * p2)}, {@code checkpointLocation} and {@code queryName} of {@code writeStream}, and {@code
   * __path_param_name} when a path came as a named parameter. Never reported as unknown.
   */
  private static final Set<String> SPARK_OWN =
      Set.of(PATHS, "checkpointlocation", "queryname", "__path_param_name");

  /**
   * Options whose empty value would silently mean "not given": a start or end that is not where the
   * user asked, or a producer sink that is only at least once.
   */
  private static final Set<String> BLANK_REFUSED =
      Set.of(
          STARTING_OFFSETS,
          ENDING_OFFSETS,
          STARTING_TIMESTAMP,
          ENDING_TIMESTAMP,
          PRODUCER_PATH,
          OUTPUT_TABLET_KEY);

  /** What Spark adds for {@code partitionBy(...)}, which the yt sink does not take. */
  private static final String PARTITION_COLUMNS = "__partition_columns";

  /** What ends the name of a schema hint, {@code <column>_hint} (SPYT's). */
  public static final String HINT_SUFFIX = "_hint";

  /** SPYT's write option of that form, which is not a column's hint. */
  private static final String WRITE_SCHEMA_HINT = "write_schema_hint";

  private final Map<String, String> values;

  /** Schema hints by option name as given, sorted. */
  private final Map<String, String> columnHints;

  private YtOptions(Map<String, String> values, Map<String, String> columnHints) {
    this.values = values;
    this.columnHints = columnHints;
  }

  /** Options of the source or the sink: a name neither knows is an error. */
  public static YtOptions of(Map<String, String> options) {
    return of(options, OptionScope.BOTH);
  }

  /**
   * Options from Spark's map (any case), used where {@code use} says. A name the {@code yt} source
   * and sink do not know is an error that names it and says what to use: the {@code yt} equivalent
   * of another source's option (Kafka's, SPYT's), or the known name it is close to. An option of
   * the sink given to a read (or the other way round) is an error too.
   */
  public static YtOptions of(Map<String, String> options, OptionScope use) {
    TreeMap<String, String> lower = new TreeMap<>();
    TreeMap<String, String> given = new TreeMap<>();
    TreeMap<String, String> hints = new TreeMap<>();
    options.forEach(
        (k, v) -> {
          lower.put(k.toLowerCase(Locale.ROOT), v);
          given.put(k.toLowerCase(Locale.ROOT), k);
        });
    for (Map.Entry<String, String> e : given.entrySet()) {
      String name = e.getKey();
      if (SPARK_OWN.contains(name)) {
        continue;
      }
      if (isColumnHint(name)) {
        if (use == OptionScope.WRITE) {
          throw new IllegalArgumentException(
              "option '"
                  + e.getValue()
                  + "' is a schema hint (<column>_hint), which applies to reads (the yt source),"
                  + " not to writes: remove it here; a write takes the output table's types");
        }
        hints.put(e.getValue(), lower.get(name));
        continue;
      }
      OptionScope scope = OWN.get(name);
      if (scope != null) {
        if (!scope.covers(use)) {
          throw new IllegalArgumentException(
              "option '"
                  + e.getValue()
                  + "' applies to "
                  + (scope == OptionScope.READ ? "reads (the yt source)" : "writes (the yt sink)")
                  + ", not to "
                  + (use == OptionScope.READ ? "reads" : "writes")
                  + ": remove it here. Options of "
                  + (use == OptionScope.READ ? "reads: " : "writes: ")
                  + known(use));
        }
        String value = lower.get(name);
        if (BLANK_REFUSED.contains(name) && (value == null || value.isBlank())) {
          throw new IllegalArgumentException(
              "option '"
                  + e.getValue()
                  + "' is empty ('"
                  + (value == null ? "" : value)
                  + "'): an empty value would read or write as if the option were not given."
                  + " Give a value (see the option table in adapter-spark's README) or remove the"
                  + " option");
        }
        continue;
      }
      throw new IllegalArgumentException(unknown(e.getValue(), use));
    }
    return new YtOptions(lower, Collections.unmodifiableSortedMap(hints));
  }

  private static boolean isColumnHint(String lowerName) {
    return lowerName.endsWith(HINT_SUFFIX) && !lowerName.equals(WRITE_SCHEMA_HINT);
  }

  /**
   * The schema hints, SPYT's read options {@code <column>_hint}: option name as given → the hinted
   * type (Spark's {@code DataType} JSON), sorted by name. What each means is decided where the
   * queue's columns are known.
   */
  public Map<String, String> columnHints() {
    return columnHints;
  }

  private static String unknown(String name, OptionScope use) {
    String prefix = "unknown option '" + name + "' of the yt source/sink: ";
    if (name.toLowerCase(Locale.ROOT).equals(PARTITION_COLUMNS)) {
      return prefix
          + "it comes from partitionBy(), which the yt sink does not take (the output table's"
          + " tablets place the rows): remove partitionBy()";
    }
    Optional<String> foreign = ForeignOptions.hintFor(name);
    if (foreign.isPresent()) {
      return "option '" + name + "' " + foreign.get() + ". Known options: " + known(use);
    }
    Optional<String> suggestion = closest(name.toLowerCase(Locale.ROOT));
    if (suggestion.isPresent()) {
      return prefix + "did you mean '" + suggestion.get() + "'? Known options: " + known(use);
    }
    return prefix + "remove it, or use one of " + known(use);
  }

  /** The options that apply where {@code use} says, sorted. */
  static TreeSet<String> known(OptionScope use) {
    TreeSet<String> names = new TreeSet<>();
    OWN.forEach(
        (name, scope) -> {
          if (scope.covers(use)) {
            names.add(name);
          }
        });
    return names;
  }

  public Optional<String> get(String name) {
    String value = values.get(name.toLowerCase(Locale.ROOT));
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /** The queues to read: {@code load("//q")}, {@code load("//q1,//q2")} or batch multi-path. */
  public List<YPath> queuePaths() {
    List<String> raw = new ArrayList<>();
    get(PATHS).ifPresent(p -> raw.addAll(parseJsonStringArray(PATHS, p)));
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
                        "option consumer_path is missing: a streaming read of a queue needs a"
                            + " registered consumer, e.g. .option(\"consumer_path\","
                            + " \"//home/consumer\") (a static read, spark.read, needs none)")));
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

  /**
   * The queue producer the sink pushes through ({@code producer_path}), if given: a streaming write
   * into a queue then pushes each task's share of a batch through a producer session of its own.
   */
  public Optional<YPath> producerPath() {
    return get(PRODUCER_PATH).map(p -> ypath(PRODUCER_PATH, p));
  }

  /**
   * The columns whose values choose each row's output tablet ({@code output_tablet_key}, comma
   * separated), if given: every row of one key lands in one tablet of the ordered output.
   */
  public List<String> outputTabletKey() {
    Optional<String> raw = get(OUTPUT_TABLET_KEY);
    if (raw.isEmpty()) {
      return List.of();
    }
    List<String> columns = new ArrayList<>();
    for (String part : raw.get().split(",", -1)) {
      String column = part.trim();
      if (column.isEmpty() || columns.contains(column)) {
        throw new IllegalArgumentException(
            "option "
                + OUTPUT_TABLET_KEY
                + " = '"
                + raw.get()
                + "' has "
                + (column.isEmpty() ? "an empty" : "a repeated")
                + " column name: give the DataFrame's columns whose values choose the output"
                + " tablet, comma separated, each once, e.g. \"user_id\" or \"region,user_id\"");
      }
      columns.add(column);
    }
    return columns;
  }

  public boolean includeServiceColumns() {
    return bool(INCLUDE_SERVICE_COLUMNS, false);
  }

  public boolean failOnDataLoss() {
    return bool(FAIL_ON_DATA_LOSS, true);
  }

  /**
   * How many queue partitions one Real-time Mode task reads ({@code real_time_partitions_per_task},
   * default 1): a batch runs that many fewer tasks, and needs that many fewer task slots. Other
   * triggers ignore it.
   */
  public int realTimePartitionsPerTask() {
    String fix =
        "Set it to how many queue partitions one Real-time Mode task reads, e.g. 4 to read a queue"
            + " of 16 tablets with 4 task slots, or leave it unset for the default 1 (one task slot"
            + " per partition)";
    long value = positive(REAL_TIME_PARTITIONS_PER_TASK, fix).orElse(1L);
    if (value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "option "
              + REAL_TIME_PARTITIONS_PER_TASK
              + " must be at most "
              + Integer.MAX_VALUE
              + ", got '"
              + get(REAL_TIME_PARTITIONS_PER_TASK).orElse("")
              + "'. "
              + fix);
    }
    return (int) value;
  }

  long maxRowsPerPartition() {
    return positive(
            MAX_ROWS_PER_PARTITION,
            "Set it to the most rows one batch may read from one queue partition, e.g. 1000, or"
                + " leave it unset for the default "
                + PlanLimits.DEFAULT_MAX_ROWS_PER_PARTITION)
        .orElse(PlanLimits.DEFAULT_MAX_ROWS_PER_PARTITION);
  }

  /**
   * The trigger's size: {@code max_rows_per_trigger}, {@code min_rows_per_trigger} and {@code
   * max_trigger_delay} (Kafka's {@code maxOffsetsPerTrigger}, {@code minOffsetsPerTrigger}, {@code
   * maxTriggerDelay}), and {@code max_bytes_per_trigger} (the file source's {@code
   * maxBytesPerTrigger}).
   */
  public TriggerLimit triggerLimit() {
    OptionalLong max =
        toOptionalLong(
            positive(
                MAX_ROWS_PER_TRIGGER,
                "Set it to the most rows one"
                    + " batch may read from all queue partitions together, e.g. 100000, or leave it unset"
                    + " for no total cap"));
    OptionalLong min =
        toOptionalLong(
            positive(
                MIN_ROWS_PER_TRIGGER,
                "Set it to the fewest rows"
                    + " worth a batch, e.g. 10000, or leave it unset to run a batch for any new row"));
    Optional<String> delayRaw = get(MAX_TRIGGER_DELAY);
    long delayMs = TriggerLimit.DEFAULT_MAX_DELAY_MS;
    if (delayRaw.isPresent()) {
      if (min.isEmpty()) {
        throw new IllegalArgumentException(
            "option max_trigger_delay = '"
                + delayRaw.get()
                + "' has no effect without min_rows_per_trigger: it bounds how long that minimum"
                + " may hold a batch back. Set min_rows_per_trigger too, or remove"
                + " max_trigger_delay");
      }
      delayMs = duration(MAX_TRIGGER_DELAY, delayRaw.get());
    }
    if (max.isPresent() && min.isPresent() && min.getAsLong() > max.getAsLong()) {
      throw new IllegalArgumentException(
          "option min_rows_per_trigger = "
              + min.getAsLong()
              + " exceeds max_rows_per_trigger = "
              + max.getAsLong()
              + ": no batch could ever hold the minimum. Lower min_rows_per_trigger or raise"
              + " max_rows_per_trigger");
    }
    return new TriggerLimit(max, min, delayMs, maxBytesPerTrigger());
  }

  /** {@code max_bytes_per_trigger}, if given: the most data weight one batch reads. */
  public OptionalLong maxBytesPerTrigger() {
    return toOptionalLong(
        positive(
            MAX_BYTES_PER_TRIGGER,
            "Set it to the most bytes of data weight ($cumulative_data_weight) one batch may read"
                + " from all queue partitions together, e.g. 67108864 for 64 MiB, or leave it"
                + " unset for no cap by bytes"));
  }

  /**
   * {@code max_bytes_per_partition}, if given: the most data weight one batch reads per partition.
   */
  public OptionalLong maxBytesPerPartition() {
    return toOptionalLong(
        positive(
            MAX_BYTES_PER_PARTITION,
            "Set it to the most bytes of data weight ($cumulative_data_weight) one batch may read"
                + " from one queue partition, e.g. 16777216 for 16 MiB, or leave it unset for no"
                + " cap by bytes"));
  }

  private static OptionalLong toOptionalLong(Optional<Long> v) {
    return v.isPresent() ? OptionalLong.of(v.get()) : OptionalLong.empty();
  }

  /** A whole number >= 1, if given. */
  private Optional<Long> positive(String name, String fix) {
    Optional<String> raw = get(name);
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    long value;
    try {
      value = Long.parseLong(raw.get());
    } catch (NumberFormatException e) {
      value = 0;
    }
    if (value < 1) {
      throw new IllegalArgumentException(
          "option " + name + " must be a whole number >= 1, got '" + raw.get() + "'. " + fix);
    }
    return Optional.of(value);
  }

  /** A duration as Spark writes them ({@code 30s}, {@code 5m}, {@code 500ms}; no unit: ms), > 0. */
  private static long duration(String name, String raw) {
    long ms;
    try {
      ms = JavaUtils.timeStringAsMs(raw);
    } catch (RuntimeException e) {
      ms = -1;
    }
    if (ms <= 0) {
      throw new IllegalArgumentException(
          "option "
              + name
              + " must be a positive duration such as 30s, 5m or 1h, got '"
              + raw
              + "'");
    }
    return ms;
  }

  /** {@code starting_offsets}, if given: {@code earliest}, {@code latest} or JSON per partition. */
  public Optional<StartingOffsets> startingOffsets() {
    return offsets(STARTING_OFFSETS);
  }

  /**
   * Where a new stream starts when its consumer has no position: {@code starting_offsets}, or
   * {@code starting_timestamp}; not both.
   */
  public Optional<StartingOffsets> streamStart() {
    return position(STARTING_OFFSETS, STARTING_TIMESTAMP);
  }

  /** A static read's start: {@code starting_offsets} or {@code starting_timestamp}; earliest. */
  public StartingOffsets staticStart() {
    return position(STARTING_OFFSETS, STARTING_TIMESTAMP).orElse(new StartingOffsets.Earliest());
  }

  /**
   * A static read's end (exclusive): {@code ending_offsets} or {@code ending_timestamp}; latest.
   */
  public StartingOffsets staticEnd() {
    return position(ENDING_OFFSETS, ENDING_TIMESTAMP).orElse(new StartingOffsets.Latest());
  }

  /** The name of the option that gave a static read's start ({@code starting_offsets} if none). */
  public String staticStartOption() {
    return get(STARTING_TIMESTAMP).isPresent() ? STARTING_TIMESTAMP : STARTING_OFFSETS;
  }

  /** The name of the option that gave a static read's end ({@code ending_offsets} if none). */
  public String staticEndOption() {
    return get(ENDING_TIMESTAMP).isPresent() ? ENDING_TIMESTAMP : ENDING_OFFSETS;
  }

  private Optional<StartingOffsets> position(String offsetsOption, String timestampOption) {
    Optional<StartingOffsets> byOffsets = offsets(offsetsOption);
    Optional<String> time = get(timestampOption);
    if (time.isEmpty()) {
      return byOffsets;
    }
    if (byOffsets.isPresent()) {
      throw new IllegalArgumentException(
          "options "
              + offsetsOption
              + " and "
              + timestampOption
              + " both say where the read "
              + (offsetsOption.equals(STARTING_OFFSETS) ? "starts" : "ends")
              + ": give one of them");
    }
    long millis;
    try {
      millis = Long.parseLong(time.get().trim());
    } catch (NumberFormatException e) {
      millis = -1;
    }
    if (millis < 0) {
      throw new IllegalArgumentException(
          "option "
              + timestampOption
              + " must be milliseconds since the epoch (a whole number >= 0, as Kafka's"
              + " timestamps; e.g. 1704067200000 for 2024-01-01T00:00:00Z), got '"
              + time.get()
              + "'");
    }
    return Optional.of(new StartingOffsets.AtTimestamp(millis));
  }

  private Optional<StartingOffsets> offsets(String name) {
    Optional<String> raw = get(name);
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(StartingOffsetsText.parse(raw.get()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("option " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * The options a streaming read does not take (a static read's end), as Kafka's source refuses
   * {@code endingOffsets} in a stream.
   */
  public void checkStreaming() {
    for (String name : List.of(ENDING_OFFSETS, ENDING_TIMESTAMP)) {
      if (get(name).isPresent()) {
        throw new IllegalArgumentException(
            "option "
                + name
                + " is for a static read (spark.read); a streaming read does not take it: remove"
                + " it, a stream runs until it is stopped (Trigger.AvailableNow stops at the end"
                + " seen when it began)");
      }
    }
  }

  /** The options a static read does not take: it reads without a consumer and has no triggers. */
  public void checkStatic() {
    if (get(CONSUMER_PATH).isPresent()) {
      throw new IllegalArgumentException(
          "option consumer_path is for a streaming read (spark.readStream); a static read"
              + " (spark.read) reads a range without any consumer and moves none: remove it, and"
              + " give the range with starting_offsets / ending_offsets or starting_timestamp /"
              + " ending_timestamp");
    }
    for (String name :
        List.of(
            MAX_ROWS_PER_TRIGGER, MIN_ROWS_PER_TRIGGER, MAX_TRIGGER_DELAY, MAX_BYTES_PER_TRIGGER)) {
      if (get(name).isPresent()) {
        throw new IllegalArgumentException(
            "option "
                + name
                + " sizes a stream's triggers; a static read (spark.read) has none: remove it"
                + " (max_rows_per_partition bounds the rows of each task of a static read)");
      }
    }
    if (get(MAX_BYTES_PER_PARTITION).isPresent()) {
      throw new IllegalArgumentException(
          "option max_bytes_per_partition caps a stream's batches; a static read (spark.read)"
              + " cuts a partition's range into tasks by rows: remove it, and use"
              + " max_rows_per_partition to bound the rows of each task");
    }
    for (String name : List.of(MIN_TASKS, MAX_ROWS_PER_TASK)) {
      if (get(name).isPresent()) {
        throw new IllegalArgumentException(
            "option "
                + name
                + " splits a stream's micro-batches into tasks; a static read (spark.read) cuts"
                + " each partition's range into tasks of at most max_rows_per_partition rows:"
                + " remove it, and use max_rows_per_partition to size the tasks");
      }
    }
    if (get(REAL_TIME_PARTITIONS_PER_TASK).isPresent()) {
      throw new IllegalArgumentException(
          "option "
              + REAL_TIME_PARTITIONS_PER_TASK
              + " sizes the tasks of a Real-time Mode stream; a static read (spark.read) has"
              + " none: remove it (max_rows_per_partition bounds the rows of each task of a static"
              + " read)");
    }
  }

  /** Whether option {@code consumer_path} is given. */
  public boolean hasConsumerPath() {
    return get(CONSUMER_PATH).isPresent();
  }

  /** The most rows one task of a static read reads: {@code max_rows_per_partition}. */
  public long maxRowsPerStaticTask() {
    return maxRowsPerPartition();
  }

  public PlanLimits planLimits() {
    return PlanLimits.of(
            maxRowsPerPartition(),
            failOnDataLoss() ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT)
        .withMaxBytesPerPartition(maxBytesPerPartition())
        .withTaskSplit(taskSplit());
  }

  /**
   * How a micro-batch's partition ranges are cut into tasks: {@code min_tasks} (Kafka's {@code
   * minPartitions}) and {@code max_rows_per_task}; unset, one task per partition range.
   */
  public TaskSplit taskSplit() {
    Optional<Long> minTasks =
        positive(
            MIN_TASKS,
            "Set it to the fewest tasks a micro-batch should run, e.g. 8 to read one queue"
                + " partition's backlog with 8 cores, or leave it unset for one task per"
                + " partition");
    if (minTasks.isPresent() && minTasks.get() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "option "
              + MIN_TASKS
              + " must be at most "
              + Integer.MAX_VALUE
              + ", got '"
              + get(MIN_TASKS).orElse("")
              + "'. Set it to the fewest tasks a micro-batch should run, e.g. 8");
    }
    OptionalLong maxRows =
        toOptionalLong(
            positive(
                MAX_ROWS_PER_TASK,
                "Set it to the most rows one task of a micro-batch reads, e.g. 50000, or leave it"
                    + " unset for one task per partition"));
    return new TaskSplit(
        minTasks.isPresent() ? OptionalInt.of(minTasks.get().intValue()) : OptionalInt.empty(),
        maxRows);
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
        "option "
            + name
            + " must be true or false, got '"
            + raw.get()
            + "': set it to true or false");
  }

  private static YPath ypath(String option, String value) {
    try {
      return YPath.of(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "option " + option + " = '" + value + "' is not a Cypress path: " + e.getMessage(), e);
    }
  }

  /**
   * Spark passes several paths ({@code load("//q1", "//q2")}) as option {@code paths}, a JSON array
   * of strings, read by the one JSON reader; a value that is not an array is one path.
   */
  private static List<String> parseJsonStringArray(String option, String json) {
    String body = json.trim();
    if (!body.startsWith("[")) {
      return List.of(body);
    }
    Object parsed;
    try {
      parsed = JsonReader.read(body);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "option "
              + option
              + " = '"
              + body
              + "' is not a JSON array of strings ("
              + e.getMessage()
              + "): give the queue paths to load(), e.g. load(\"//home/q1\", \"//home/q2\")",
          e);
    }
    List<String> out = new ArrayList<>();
    List<?> items = (List<?>) parsed;
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof String path)) {
        throw new IllegalArgumentException(
            "option "
                + option
                + " = '"
                + body
                + "' holds "
                + items.get(i)
                + " at $["
                + i
                + "], not a string: give the queue paths to load(), e.g. load(\"//home/q1\","
                + " \"//home/q2\")");
      }
      out.add(path);
    }
    return out;
  }

  /** The known option within edit distance 2 (or equal when separators are ignored), if any. */
  static Optional<String> closest(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String squashed = name.replace("_", "").replace("-", "").replace(".", "");
    for (String known : new TreeSet<>(OWN.keySet())) {
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
