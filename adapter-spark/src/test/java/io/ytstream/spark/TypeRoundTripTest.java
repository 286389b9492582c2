package io.ytstream.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.types.TypeV3Options;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every type and nesting shape of {@link TypeCases} through Spark: queue → {@code format("yt")}
 * source → {@code format("yt")} sink → output table of the same schema, once with type_v3 (Spark
 * structs, arrays, maps) and once without (composite columns as binary YSON), over the in-memory
 * cluster and over HTTP to the emulator. What lands in the output table must equal what was put in
 * the queue, value for value. One query carries all columns.
 */
class TypeRoundTripTest {

  @RegisterExtension final YtEmulatorExtension yt = new YtEmulatorExtension();

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.PROXY);
    spark.conf().unset(TypeV3Options.READ_SETTING);
    spark.conf().unset(TypeV3Options.WRITE_SETTING);
  }

  @Test
  void everyTypeRoundTripsInMemory() throws Exception {
    TestCluster c = TestCluster.create(spark, "types");
    roundTrips(c.cluster, "types-mem");
    serviceColumnsCarryTheQueuesSystemColumns(c.cluster, "types-mem");
  }

  @Test
  void everyTypeRoundTripsOverHttp(YtEmulator emulator) throws Exception {
    spark.conf().set(YtSettings.PROXY, emulator.url());
    roundTrips(emulator.cluster(), "types-http");
    serviceColumnsCarryTheQueuesSystemColumns(emulator.cluster(), "types-http");
  }

  @Test
  void aBadSwitchValueFailsAtLoadNamingTheOptionOrSetting() {
    TestCluster c = TestCluster.create(spark, "types-bad");
    c.queue("//q", 1).consumer("//c", "//q");
    String option =
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    spark
                        .readStream()
                        .format("yt")
                        .option("consumer_path", "//c")
                        .option("parsing_type_v3", "maybe")
                        .load("//q"))
            .getMessage();
    assertTrue(
        option.startsWith("option parsing_type_v3 must be true or false, got 'maybe'"), option);
    spark.conf().set(TypeV3Options.READ_SETTING, "yes");
    String setting =
        assertThrows(
                IllegalArgumentException.class,
                () -> spark.readStream().format("yt").option("consumer_path", "//c").load("//q"))
            .getMessage();
    assertTrue(
        setting.startsWith("setting spark.yt.read.typeV3.enabled must be true or false"), setting);
    // The option beats the (bad) setting.
    assertEquals(
        DataTypes.LongType,
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("parsing_type_v3", "false")
            .load("//q")
            .schema()
            .apply("id")
            .dataType());
  }

  private void roundTrips(InMemoryCluster cluster, String ckpt) throws Exception {
    List<TypeCases.Case> cases = TypeCases.all();
    List<Column> columns = new ArrayList<>(TypeCases.columns(cases));
    List<Column> queueColumns = new ArrayList<>(columns);
    queueColumns.add(new Column("$timestamp", "uint64", false, false));
    queueColumns.add(new Column("$cumulative_data_weight", "int64", false, false));
    cluster.createOrderedTable(YPath.of("//q"), queueColumns, 1);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
    cluster.createOrderedTable(YPath.of("//typed"), columns, 1);
    cluster.createOrderedTable(YPath.of("//yson"), columns, 1);
    List<Row> expected = TypeCases.rows(cases);
    List<Row> input = new ArrayList<>();
    expected.forEach(r -> input.add(r.with("$tablet_index", 0L)));
    cluster.outputTables().append(YPath.of("//q"), input);

    // type_v3 by the options of the SPYT listing.
    Dataset<org.apache.spark.sql.Row> typed =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("parsing_type_v3", "true")
            .load("//q");
    StructType schema = typed.schema();
    assertEquals(
        DataTypes.createDecimalType(20, 0), schema.apply("uint64").dataType(), schema.treeString());
    assertTrue(schema.apply("struct").dataType() instanceof StructType, schema.treeString());
    run(typed.writeStream().format("yt").option("write_type_v3", "true"), "//typed", ckpt + "-v3");
    assertEquals(expected, cluster.outputTables().readAll(YPath.of("//typed")));

    // Without type_v3 (here turned off by the session settings, beaten by nothing): composite
    // columns are binary YSON and go back into the typed columns as YSON.
    spark.conf().set(TypeV3Options.READ_SETTING, "false");
    spark.conf().set(TypeV3Options.WRITE_SETTING, "false");
    cluster.createConsumer(YPath.of("//c2"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c2"), true);
    Dataset<org.apache.spark.sql.Row> binary =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c2")
            .option("include_service_columns", "true")
            .load("//q");
    StructType binarySchema = binary.schema();
    for (String composite :
        List.of("struct", "opt_opt_bool", "dict_utf8", "deep", "variant_tuple")) {
      assertEquals(
          DataTypes.BinaryType,
          binarySchema.apply(composite).dataType(),
          binarySchema.treeString());
    }
    assertEquals(DataTypes.LongType, binarySchema.apply("$timestamp").dataType());
    assertEquals(DataTypes.LongType, binarySchema.apply("$cumulative_data_weight").dataType());
    // The service columns that name the source position are dropped; $timestamp and
    // $cumulative_data_weight are left in and the sink leaves them out (YTsaurus sets them).
    run(
        binary
            .drop(ServiceColumns.TABLET_INDEX, ServiceColumns.ROW_INDEX)
            .writeStream()
            .format("yt"),
        "//yson",
        ckpt + "-yson");
    assertEquals(expected, cluster.outputTables().readAll(YPath.of("//yson")));
  }

  private static void run(
      org.apache.spark.sql.streaming.DataStreamWriter<org.apache.spark.sql.Row> writer,
      String out,
      String ckpt)
      throws Exception {
    StreamingQuery query =
        writer
            .option("path", out)
            .option("checkpointLocation", "yt:///ckpt/" + ckpt)
            .trigger(Trigger.ProcessingTime(0))
            .start();
    try {
      query.processAllAvailable();
    } finally {
      query.stop();
    }
    if (query.exception().isDefined()) {
      throw query.exception().get();
    }
  }

  /**
   * With include_service_columns the source adds the queue's $timestamp, $cumulative_data_weight.
   */
  private void serviceColumnsCarryTheQueuesSystemColumns(InMemoryCluster cluster, String name)
      throws Exception {
    cluster.createConsumer(YPath.of("//c3"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c3"), true);
    StreamingQuery query =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c3")
            .option("include_service_columns", "true")
            .load("//q")
            .select(
                col("id"),
                col("`$timestamp`").as("ts"),
                col("`$cumulative_data_weight`").as("weight"))
            .writeStream()
            .format("memory")
            .queryName(name.replace('-', '_'))
            .option("checkpointLocation", "yt:///ckpt/" + name + "-service")
            .start();
    try {
      query.processAllAvailable();
    } finally {
      query.stop();
    }
    Map<Long, List<Long>> seen = new TreeMap<>();
    for (org.apache.spark.sql.Row r :
        spark.sql("select id, ts, weight from " + name.replace('-', '_')).collectAsList()) {
      seen.put(r.getLong(0), List.of(r.getLong(1), r.getLong(2)));
    }
    Map<Long, List<Long>> expected = new TreeMap<>();
    for (QueueRow r :
        cluster
            .queueReader()
            .pull(
                new io.ytstream.core.model.ConsumerId(cluster.name(), YPath.of("//c")),
                new io.ytstream.core.model.PartitionId(
                    new io.ytstream.core.model.QueueId(cluster.name(), YPath.of("//q")), 0),
                0,
                100)) {
      expected.put(
          (Long) r.data().get("id"),
          List.of(r.timestamp().orElseThrow(), r.cumulativeDataWeight().orElseThrow()));
    }
    assertEquals(expected, seen);
  }
}
