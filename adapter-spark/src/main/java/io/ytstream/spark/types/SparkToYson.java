package io.ytstream.spark.types;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark value written into a {@code yson} column, as the YSON value its type suggests: integers
 * int64, float and double double, boolean, string and binary YSON strings, decimal its decimal
 * text, date days and timestamps microseconds (int64), array a list, struct a map by field name,
 * map a map when its keys are strings and else a list of {@code [key; value]}. This is how a Spark
 * struct, array or map reaches a yson column (SPYT writes composite values without type_v3 so).
 */
final class SparkToYson {

  private SparkToYson() {}

  static ValueConverter of(DataType s, String path) {
    if (s instanceof ByteType
        || s instanceof ShortType
        || s instanceof IntegerType
        || s instanceof LongType) {
      return v -> v == null ? null : ((Number) v).longValue();
    }
    if (s instanceof FloatType || s instanceof DoubleType) {
      return v -> v == null ? null : ((Number) v).doubleValue();
    }
    if (s instanceof BooleanType || s instanceof BinaryType || s instanceof NullType) {
      return v -> v;
    }
    if (s instanceof StringType) {
      return v -> v == null ? null : ((UTF8String) v).getBytes();
    }
    if (s instanceof DecimalType) {
      return v -> v == null ? null : ((Decimal) v).toJavaBigDecimal().toPlainString();
    }
    if (s instanceof DateType) {
      return v -> v == null ? null : ((Integer) v).longValue();
    }
    if (s instanceof TimestampType || s instanceof TimestampNTZType) {
      return v -> v;
    }
    if (s instanceof ArrayType a) {
      DataType e = a.elementType();
      ValueConverter item = of(e, path + "[]");
      return v -> {
        if (v == null) {
          return null;
        }
        ArrayData data = (ArrayData) v;
        List<Object> out = new ArrayList<>(data.numElements());
        for (int i = 0; i < data.numElements(); i++) {
          out.add(data.isNullAt(i) ? null : item.convert(data.get(i, e)));
        }
        return out;
      };
    }
    if (s instanceof StructType st) {
      StructField[] fields = st.fields();
      ValueConverter[] items = new ValueConverter[fields.length];
      for (int i = 0; i < fields.length; i++) {
        items[i] = of(fields[i].dataType(), path + "." + fields[i].name());
      }
      return v -> {
        if (v == null) {
          return null;
        }
        InternalRow row = (InternalRow) v;
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < fields.length; i++) {
          out.put(
              fields[i].name(),
              row.isNullAt(i) ? null : items[i].convert(row.get(i, fields[i].dataType())));
        }
        return out;
      };
    }
    if (s instanceof MapType m) {
      DataType kt = m.keyType();
      DataType vt = m.valueType();
      ValueConverter key = of(kt, path + ".key");
      ValueConverter value = of(vt, path + ".value");
      boolean stringKeys = kt instanceof StringType;
      return v -> {
        if (v == null) {
          return null;
        }
        MapData map = (MapData) v;
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        Map<String, Object> asMap = new LinkedHashMap<>();
        List<Object> asPairs = new ArrayList<>();
        for (int i = 0; i < map.numElements(); i++) {
          Object k = keys.get(i, kt);
          Object val = values.isNullAt(i) ? null : value.convert(values.get(i, vt));
          if (stringKeys) {
            asMap.put(k.toString(), val);
          } else {
            List<Object> pair = new ArrayList<>(2);
            pair.add(key.convert(k));
            pair.add(val);
            asPairs.add(pair);
          }
        }
        return stringKeys ? asMap : asPairs;
      };
    }
    throw new SparkToYt.Mismatch(
        path + ": Spark " + s.simpleString() + " has no YSON form here",
        "cast it to a supported type or pass binary YSON");
  }
}
