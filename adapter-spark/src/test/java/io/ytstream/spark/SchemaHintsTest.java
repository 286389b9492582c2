package io.ytstream.spark;

import static io.ytstream.types.v3.YtType.optional;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.types.v3.YtPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * SPYT's schema hints ({@code <column>_hint}, a Spark type in JSON) on the in-memory cluster: a
 * {@code yson} column decoded into the hinted struct and an {@code int32} column widened, in a
 * static read and in a stream, as SPYT's own test of {@code schema_hint} reads its table; and the
 * errors for a hint that names no column, is not a type, or does not fit.
 */
class SchemaHintsTest {

  private static final StructType ADDRESS =
      new StructType().add("street", DataTypes.StringType).add("zipcode", DataTypes.IntegerType);

  private final SparkSession spark = SharedSpark.get();
  private TestCluster c;

  @BeforeEach
  void cluster() {
    c = TestCluster.create(spark, "hints");
    c.orderedTable(
        "//q",
        List.of(
            Column.of("money", optional(YtPrimitive.INT32), false),
            Column.of("address", optional(YtPrimitive.YSON), false)),
        1);
    c.consumer("//c", "//q");
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("street", "123 Main St");
    first.put("zipcode", 12345L);
    first.put("floor", 3L);
    Map<String, Object> second = new LinkedHashMap<>();
    second.put("street", null);
    second.put("zipcode", 11111L);
    List<io.ytstream.ports.Row> rows = new ArrayList<>();
    rows.add(io.ytstream.ports.Row.of("$tablet_index", 0L, "money", 100000L, "address", first));
    rows.add(io.ytstream.ports.Row.of("$tablet_index", 0L, "money", null, "address", second));
    c.cluster.outputTables().append(YPath.of("//q"), rows);
  }

  private static StructType expectedSchema() {
    return new StructType().add("money", DataTypes.LongType).add("address", ADDRESS);
  }

  private static List<String> rendered(Dataset<Row> df) {
    List<String> out = new ArrayList<>();
    for (Row r : df.orderBy("address.zipcode").collectAsList()) {
      out.add(r.toString());
    }
    return out;
  }

  private static final List<String> EXPECTED_ROWS =
      List.of("[null,[null,11111]]", "[100000,[123 Main St,12345]]");

  @Test
  void aStaticReadDecodesTheYsonColumnIntoTheHintedStructAndWidensTheInteger() {
    Dataset<Row> df =
        spark
            .read()
            .format("yt")
            .option("money_hint", DataTypes.LongType.json())
            .option("address_hint", ADDRESS.json())
            .load("//q");

    assertEquals(expectedSchema(), df.schema());
    assertEquals(EXPECTED_ROWS, rendered(df));

    Dataset<Row> partial =
        spark.read().format("yt").option("ADDRESS_hint", ADDRESS.json()).load("//q");
    assertEquals(DataTypes.IntegerType, partial.schema().apply("money").dataType());
    assertEquals(ADDRESS, partial.schema().apply("address").dataType());
  }

  @Test
  void aStreamReadsTheHintedTypes() throws Exception {
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("money_hint", DataTypes.LongType.json())
            .option("address_hint", ADDRESS.json())
            .load("//q")
            .writeStream()
            .format("memory")
            .queryName(c.name + "_hinted")
            .option("checkpointLocation", "yt:///ckpt/" + c.name)
            .trigger(Trigger.AvailableNow())
            .start();
    q.awaitTermination();

    Dataset<Row> out = spark.table(c.name + "_hinted");
    assertEquals(expectedSchema(), out.schema());
    assertEquals(EXPECTED_ROWS, rendered(out));
  }

  @Test
  void aHintOnAColumnTheQueueLacksNamesTheColumnsItHas() {
    String message =
        failure(() -> spark.read().format("yt").option("adress_hint", "\"long\"").load("//q"));
    assertMentions(
        message, "option 'adress_hint' = '\"long\"'", "column 'adress'", "money, address");
  }

  @Test
  void aValueThatIsNotASparkTypeInJsonSaysWhatToGive() {
    String message =
        failure(
            () ->
                spark.read().format("yt").option("address_hint", "{type_name=struct}").load("//q"));
    assertMentions(
        message, "option 'address_hint' = '{type_name=struct}'", "DataType.json()", "\"long\"");
  }

  @Test
  void aNarrowingHintIsRefusedWithTheCastToUse() {
    String message =
        failure(
            () ->
                spark
                    .read()
                    .format("yt")
                    .option("money_hint", DataTypes.ShortType.json())
                    .load("//q"));
    assertMentions(
        message,
        "option 'money_hint' = '\"short\"'",
        "int32 values do not all fit int16",
        "col(\"money\").cast(\"smallint\")");
  }

  @Test
  void aValueThatDoesNotFitFailsTheReadNamingTheOptionAndThePlace() {
    StructType tiny =
        new StructType().add("street", DataTypes.StringType).add("zipcode", DataTypes.ByteType);
    String message =
        failure(
            () ->
                spark
                    .read()
                    .format("yt")
                    .option("address_hint", tiny.json())
                    .load("//q")
                    .collectAsList());
    assertMentions(
        message, "option address_hint", "column address.zipcode", "out of range for int8");
  }

  @Test
  void aHintIsRefusedOnAWrite() {
    c.orderedTable("//out", 1);
    String message =
        failure(
            () ->
                spark
                    .read()
                    .format("yt")
                    .load("//q")
                    .select("money")
                    .write()
                    .format("yt")
                    .mode("append")
                    .option("money_hint", "\"long\"")
                    .save("//out"));
    assertMentions(message, "option 'money_hint' is a schema hint", "not to writes");
  }

  /** The messages of an error and all its causes, joined. */
  private static String failure(Executable action) {
    Throwable t = assertThrows(Throwable.class, action);
    StringBuilder all = new StringBuilder();
    for (Throwable e = t; e != null; e = e.getCause()) {
      all.append(e.getMessage()).append(" | ");
    }
    return all.toString();
  }

  private static void assertMentions(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
    }
  }
}
