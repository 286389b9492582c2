package io.ytstream.spark.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** Each type's getter reads what {@code InternalRow.get(ordinal, type)} reads, unsafe rows too. */
class CatalystGetterTest {

  @Test
  void everyGetterReadsWhatTheGenericGetReads() {
    List<DataType> types =
        List.of(
            DataTypes.LongType,
            DataTypes.StringType,
            DataTypes.IntegerType,
            DataTypes.DoubleType,
            DataTypes.BooleanType,
            DataTypes.BinaryType,
            DataTypes.ShortType,
            DataTypes.ByteType,
            DataTypes.FloatType,
            DataTypes.DateType,
            DataTypes.TimestampType,
            DataTypes.createDecimalType(10, 2));
    Object[] values = {
      -7L,
      UTF8String.fromString("caf\u00e9"),
      42,
      2.5,
      true,
      new byte[] {1, 2},
      (short) -3,
      (byte) 9,
      1.5f,
      19_000,
      1_700_000_000_000_000L,
      Decimal.apply("12.34")
    };
    StructField[] fields = new StructField[types.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = DataTypes.createStructField("c" + i, types.get(i), false);
    }
    InternalRow generic = new GenericInternalRow(values);
    InternalRow unsafe = UnsafeProjection.create(new StructType(fields)).apply(generic);
    for (InternalRow row : List.of(generic, unsafe)) {
      for (int i = 0; i < fields.length; i++) {
        Object expected = row.get(i, types.get(i));
        Object got = CatalystGetter.of(types.get(i)).get(row, i);
        if (expected instanceof byte[] b) {
          assertEquals(java.util.Arrays.toString(b), java.util.Arrays.toString((byte[]) got));
        } else {
          assertEquals(expected, got, types.get(i) + " of " + row.getClass().getSimpleName());
        }
      }
    }
  }
}
