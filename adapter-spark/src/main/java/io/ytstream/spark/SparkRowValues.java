package io.ytstream.spark;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * Converts the values of a {@code org.apache.spark.sql.Row} (what a {@code ForeachWriter} gets:
 * Java types, not Spark's internal ones) for a YTsaurus column, through the sink's own conversion.
 */
final class SparkRowValues {

  private SparkRowValues() {}

  static Object toYt(Object value, String column, String ytType) {
    if (value == null) {
      return null;
    }
    DataType type;
    Object internal = value;
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      type = DataTypes.LongType;
    } else if (value instanceof Double || value instanceof Float) {
      type = DataTypes.DoubleType;
    } else if (value instanceof Boolean) {
      type = DataTypes.BooleanType;
    } else if (value instanceof String) {
      type = DataTypes.StringType;
    } else if (value instanceof byte[]) {
      type = DataTypes.BinaryType;
    } else if (value instanceof java.sql.Timestamp ts) {
      type = DataTypes.TimestampType;
      internal = micros(ts.toInstant());
    } else if (value instanceof Instant instant) {
      type = DataTypes.TimestampType;
      internal = micros(instant);
    } else if (value instanceof LocalDateTime ldt) {
      type = DataTypes.TimestampType;
      internal = micros(ldt.toInstant(ZoneOffset.UTC));
    } else if (value instanceof java.sql.Date date) {
      type = DataTypes.DateType;
      internal = date.toLocalDate().toEpochDay();
    } else if (value instanceof LocalDate date) {
      type = DataTypes.DateType;
      internal = date.toEpochDay();
    } else {
      throw new IllegalArgumentException(
          "column "
              + column
              + ": a value of "
              + (value instanceof BigDecimal ? "decimal" : value.getClass().getSimpleName())
              + " cannot be written to a YTsaurus "
              + ytType
              + " column by this writer; cast it in the query (e.g. to long, double or string)");
    }
    return YtTypes.toYtValue(internal, type, ytType);
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000L);
  }
}
