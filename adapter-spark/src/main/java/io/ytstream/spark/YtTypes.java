package io.ytstream.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.core.schema.Yson;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Primitive YTsaurus types and Spark types, both ways. Composite (type_v3) types are not mapped
 * yet; they have their own issue.
 *
 * <table>
 *   <caption>mapping</caption>
 *   <tr><th>YTsaurus</th><th>Spark</th></tr>
 *   <tr><td>int8, int16, int32, int64</td><td>byte, short, int, long</td></tr>
 *   <tr><td>uint8, uint16, uint32, uint64</td><td>short, int, long, long</td></tr>
 *   <tr><td>float, double</td><td>float, double</td></tr>
 *   <tr><td>boolean (bool)</td><td>boolean</td></tr>
 *   <tr><td>string, utf8</td><td>string</td></tr>
 *   <tr><td>date, datetime, timestamp</td><td>date, timestamp, timestamp</td></tr>
 *   <tr><td>interval</td><td>long (microseconds)</td></tr>
 *   <tr><td>any, yson</td><td>binary (YSON bytes)</td></tr>
 * </table>
 */
final class YtTypes {

  private static final Set<String> INTEGER_YT =
      Set.of("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "interval");

  private static final Map<String, DataType> TO_SPARK =
      Map.ofEntries(
          Map.entry("int8", DataTypes.ByteType),
          Map.entry("int16", DataTypes.ShortType),
          Map.entry("int32", DataTypes.IntegerType),
          Map.entry("int64", DataTypes.LongType),
          Map.entry("uint8", DataTypes.ShortType),
          Map.entry("uint16", DataTypes.IntegerType),
          Map.entry("uint32", DataTypes.LongType),
          Map.entry("uint64", DataTypes.LongType),
          Map.entry("float", DataTypes.FloatType),
          Map.entry("double", DataTypes.DoubleType),
          Map.entry("boolean", DataTypes.BooleanType),
          Map.entry("bool", DataTypes.BooleanType),
          Map.entry("string", DataTypes.StringType),
          Map.entry("utf8", DataTypes.StringType),
          Map.entry("date", DataTypes.DateType),
          Map.entry("datetime", DataTypes.TimestampType),
          Map.entry("timestamp", DataTypes.TimestampType),
          Map.entry("interval", DataTypes.LongType),
          Map.entry("any", DataTypes.BinaryType),
          Map.entry("yson", DataTypes.BinaryType));

  private YtTypes() {}

  static DataType toSpark(YPath table, Column column) {
    DataType type = TO_SPARK.get(column.type().toLowerCase(Locale.ROOT));
    if (type == null) {
      throw new IllegalArgumentException(
          "column '"
              + column.name()
              + "' of "
              + table
              + " has type "
              + column.type()
              + ", which ytstream does not map to Spark yet (composite type_v3 types have their"
              + " own issue); select the primitive columns on the YTsaurus side");
    }
    return type;
  }

  /** The data columns of a table (system columns such as {@code $timestamp} left out). */
  static List<Column> dataColumns(TableDescription table) {
    List<Column> out = new ArrayList<>();
    for (Column c : table.columns()) {
      if (!c.name().startsWith("$")) {
        out.add(c);
      }
    }
    return out;
  }

  static StructType schemaOf(TableDescription table) {
    List<StructField> fields = new ArrayList<>();
    for (Column c : dataColumns(table)) {
      fields.add(DataTypes.createStructField(c.name(), toSpark(table.path(), c), !c.required()));
    }
    return DataTypes.createStructType(fields);
  }

  /** Whether values of Spark type {@code spark} may be written into a column of {@code ytType}. */
  static boolean writable(DataType spark, String ytType) {
    String yt = ytType.toLowerCase(Locale.ROOT);
    if (spark.equals(DataTypes.ByteType)
        || spark.equals(DataTypes.ShortType)
        || spark.equals(DataTypes.IntegerType)
        || spark.equals(DataTypes.LongType)) {
      return INTEGER_YT.contains(yt);
    }
    if (spark.equals(DataTypes.FloatType) || spark.equals(DataTypes.DoubleType)) {
      return yt.equals("float") || yt.equals("double");
    }
    if (spark.equals(DataTypes.BooleanType)) {
      return yt.equals("boolean") || yt.equals("bool");
    }
    if (spark.equals(DataTypes.StringType)) {
      return yt.equals("string") || yt.equals("utf8");
    }
    if (spark.equals(DataTypes.BinaryType)) {
      return yt.equals("string") || yt.equals("any") || yt.equals("yson");
    }
    if (spark.equals(DataTypes.DateType)) {
      return yt.equals("date");
    }
    if (spark.equals(DataTypes.TimestampType) || spark.equals(DataTypes.TimestampNTZType)) {
      return yt.equals("timestamp") || yt.equals("datetime");
    }
    return false;
  }

  /** A value as stored in a port {@link io.ytstream.ports.Row}, converted to Spark's form. */
  static Object toSparkValue(Object value, DataType type, String ytType) {
    if (value == null) {
      return null;
    }
    String yt = ytType.toLowerCase(Locale.ROOT);
    if (type.equals(DataTypes.ByteType)) {
      return ((Number) value).byteValue();
    }
    if (type.equals(DataTypes.ShortType)) {
      return ((Number) value).shortValue();
    }
    if (type.equals(DataTypes.IntegerType)) {
      return ((Number) value).intValue();
    }
    if (type.equals(DataTypes.LongType)) {
      return ((Number) value).longValue();
    }
    if (type.equals(DataTypes.FloatType)) {
      return ((Number) value).floatValue();
    }
    if (type.equals(DataTypes.DoubleType)) {
      return ((Number) value).doubleValue();
    }
    if (type.equals(DataTypes.BooleanType)) {
      return value;
    }
    if (type.equals(DataTypes.StringType)) {
      return value instanceof byte[] bytes
          ? UTF8String.fromBytes(bytes)
          : UTF8String.fromString(value.toString());
    }
    if (type.equals(DataTypes.BinaryType)) {
      if (isYson(yt)) {
        // Rows hold a yson column as core's YSON value model; Spark sees it as binary YSON.
        return Yson.toBinary(value);
      }
      return value instanceof byte[] bytes
          ? bytes
          : value.toString().getBytes(StandardCharsets.UTF_8);
    }
    if (type.equals(DataTypes.DateType)) {
      return ((Number) value).intValue();
    }
    if (type.equals(DataTypes.TimestampType)) {
      long v = ((Number) value).longValue();
      return yt.equals("datetime") ? Math.multiplyExact(v, 1_000_000L) : v;
    }
    throw new IllegalStateException("no conversion to " + type);
  }

  private static boolean isYson(String ytType) {
    return ytType.equals("any") || ytType.equals("yson");
  }

  /** A Spark value (InternalRow form) converted for a YTsaurus column of {@code ytType}. */
  static Object toYtValue(Object value, DataType type, String ytType) {
    if (value == null) {
      return null;
    }
    String yt = ytType.toLowerCase(Locale.ROOT);
    if (type.equals(DataTypes.ByteType)
        || type.equals(DataTypes.ShortType)
        || type.equals(DataTypes.IntegerType)
        || type.equals(DataTypes.LongType)) {
      return ((Number) value).longValue();
    }
    if (type.equals(DataTypes.FloatType) || type.equals(DataTypes.DoubleType)) {
      return ((Number) value).doubleValue();
    }
    if (type.equals(DataTypes.BooleanType)) {
      return value;
    }
    if (type.equals(DataTypes.StringType)) {
      return value.toString();
    }
    if (type.equals(DataTypes.BinaryType)) {
      byte[] bytes = (byte[]) value;
      // A yson column takes YSON (text or binary) and stores its value model.
      return isYson(yt) ? Yson.parse(bytes) : bytes.clone();
    }
    if (type.equals(DataTypes.DateType)) {
      return ((Number) value).longValue();
    }
    if (type.equals(DataTypes.TimestampType) || type.equals(DataTypes.TimestampNTZType)) {
      long micros = ((Number) value).longValue();
      return yt.equals("datetime") ? Math.floorDiv(micros, 1_000_000L) : micros;
    }
    throw new IllegalStateException("no conversion from " + type);
  }
}
