package io.ytstream.spark.types;

import static io.ytstream.types.v3.YtType.optional;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TextSlice;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Which column a hint names, the Spark types a hint can name, and a hinted text column's values.
 */
class ColumnHintsTest {

  private static final List<Column> COLUMNS =
      List.of(
          Column.of("userId", optional(YtPrimitive.INT64), false),
          Column.of("note", optional(YtPrimitive.YSON), false));

  private static List<ColumnSpec> apply(Map<String, String> hints) {
    return ColumnHints.apply(hints, COLUMNS, false, "queue //q");
  }

  private static String refused(Map<String, String> hints) {
    return assertThrows(IllegalArgumentException.class, () -> apply(hints)).getMessage();
  }

  @Test
  void aHintNamesItsColumnInAnyCaseAsSparkLowerCasesOptions() {
    List<ColumnSpec> specs = apply(Map.of("userid_hint", "\"decimal(20,0)\""));
    assertEquals(DataTypes.createDecimalType(20, 0), specs.get(0).sparkType());
    assertEquals(DataTypes.BinaryType, specs.get(1).sparkType());
  }

  @Test
  void twoHintsForOneColumnAreRefused() {
    Map<String, String> hints = new TreeMap<>();
    hints.put("userId_hint", "\"long\"");
    hints.put("userid_hint", "\"decimal(20,0)\"");
    String message = refused(hints);
    assertTrue(message.contains("'userId_hint' and 'userid_hint' both hint column"), message);
  }

  @Test
  void aSparkTypeWithoutAYtsaurusFormIsRefusedListingWhatIsRead() {
    String message = refused(Map.of("note_hint", "\"timestamp_ntz\""));
    assertTrue(message.contains("option 'note_hint' = '\"timestamp_ntz\"'"), message);
    assertTrue(message.contains("Spark type timestamp_ntz is not one"), message);
    assertTrue(message.contains("arrays, structs and maps"), message);
  }

  @Test
  void aYsonStringReadAsTextTakesTheBytesOfAnHttpAnswer() {
    ColumnSpec note = apply(Map.of("note_hint", "\"string\"")).get(1);
    assertEquals(DataTypes.StringType, note.sparkType());
    byte[] answer = "xxhello".getBytes(StandardCharsets.UTF_8);
    assertEquals("hello", note.toYt(new TextSlice(answer, 2, 5)).toString());
  }

  @Test
  void anIntegerColumnIsNotReadAsText() {
    YtType int64 = COLUMNS.get(0).typeV3();
    String message = refused(Map.of("userId_hint", "\"string\""));
    assertTrue(message.contains("column userId (" + int64.describe() + ") as string"), message);
    assertTrue(message.contains("col(\"userId\").cast(\"string\")"), message);
  }
}
