package io.ytstream.spark.types;

import java.io.Serializable;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Reads one non-null field of a Catalyst row as its Catalyst value, chosen once per column type:
 * {@code InternalRow.get(ordinal, dataType)} works out the physical type on every call, which in
 * Spark 4 reads the session's configuration (and the environment) per value. Types without a direct
 * getter here are read that way still.
 */
@FunctionalInterface
public interface CatalystGetter extends Serializable {

  Object get(SpecializedGetters row, int ordinal);

  /** The getter of a field of {@code type}. */
  static CatalystGetter of(DataType type) {
    if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return SpecializedGetters::getLong;
    }
    if (type instanceof StringType) {
      return SpecializedGetters::getUTF8String;
    }
    if (type instanceof IntegerType || type instanceof DateType) {
      return SpecializedGetters::getInt;
    }
    if (type instanceof DoubleType) {
      return SpecializedGetters::getDouble;
    }
    if (type instanceof BooleanType) {
      return SpecializedGetters::getBoolean;
    }
    if (type instanceof BinaryType) {
      return SpecializedGetters::getBinary;
    }
    if (type instanceof ShortType) {
      return SpecializedGetters::getShort;
    }
    if (type instanceof ByteType) {
      return SpecializedGetters::getByte;
    }
    if (type instanceof FloatType) {
      return SpecializedGetters::getFloat;
    }
    return (row, ordinal) -> row.get(ordinal, type);
  }
}
