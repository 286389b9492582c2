package io.ytstream.spark.types;

import io.ytstream.ports.TextSlice;
import io.ytstream.types.v3.YtDecimal;
import io.ytstream.types.v3.YtDict;
import io.ytstream.types.v3.YtList;
import io.ytstream.types.v3.YtMember;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtStruct;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtTuple;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.v3.YtVariantStruct;
import io.ytstream.types.v3.YtVariantTuple;
import io.ytstream.types.value.YsonRepresentation;
import io.ytstream.types.yson.Yson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The Spark type of a YTsaurus type_v3 type and the conversion of its row values to Catalyst
 * values, for reading. The full table, with the reasons where Spark has no exact type, is in {@code
 * docs/types.md} ("Spark mapping"); in short:
 *
 * <ul>
 *   <li>each integer type gets the smallest Spark type that holds its range (uint8 → short, uint16
 *       → int, uint32 → long); uint64 → {@code decimal(20,0)} (SPYT's basic mode does the same);
 *   <li>string, utf8, json → string (a {@code string} value keeps its bytes, UTF-8 or not); uuid →
 *       string in the 8-4-4-4-12 form of its 16 bytes; yson → binary YSON;
 *   <li>date, date32 → date; datetime, timestamp and their 64-bit variants → timestamp; interval,
 *       interval64 → long microseconds;
 *   <li>decimal(p,s) → decimal(p,s) up to Spark's precision 38, above it string;
 *   <li>optional → the item, nullable; list → array; struct → struct; tuple → struct {@code _1, _2,
 *       ..}; dict → map (array of {@code struct<key,value>} when the key type is nullable, as Spark
 *       maps have no null keys); variant → struct of nullable {@code _v<name>} / {@code _v_<i>}
 *       fields, one set; tagged → the item; {@code optional<T>} of a nullable T → {@code
 *       struct<value: T>} so that null and [null] stay apart.
 * </ul>
 *
 * <p>With type_v3 off a composite column (one whose old-style type is {@code any}) is binary YSON
 * in the documented representation ({@link YsonRepresentation}).
 */
public final class YtToSpark {

  /** A Spark type, whether it admits null, and how a row value becomes a Catalyst value. */
  public record Mapped(DataType type, boolean nullable, ValueConverter converter) {}

  private YtToSpark() {}

  /** The mapping of a top-level column. */
  public static Mapped column(YtType type, boolean typeV3) {
    if (!typeV3 && isComposite(type)) {
      YtTypeRef ref = new YtTypeRef(type);
      return new Mapped(
          DataTypes.BinaryType,
          type.isNullable(),
          v -> v == null ? null : Yson.toBinary(YsonRepresentation.toYson(ref.get(), v)));
    }
    return map(type);
  }

  /**
   * Whether a type is composite: anything but a primitive or decimal, optionally wrapped in one
   * {@code optional} and in {@code tagged} (the types whose old-style type is {@code any}, except
   * {@code yson} itself).
   */
  static boolean isComposite(YtType type) {
    YtType t = untag(type);
    if (t instanceof YtOptional o && !o.item().isNullable()) {
      t = untag(o.item());
    }
    return !(t instanceof YtPrimitive || t instanceof YtDecimal);
  }

  static YtType untag(YtType type) {
    YtType t = type;
    while (t instanceof YtTagged tagged) {
      t = tagged.item();
    }
    return t;
  }

  static Mapped map(YtType type) {
    if (type instanceof YtTagged t) {
      return map(t.item());
    }
    if (type instanceof YtPrimitive p) {
      return primitive(p);
    }
    if (type instanceof YtDecimal d) {
      if (d.precision() <= DecimalType.MAX_PRECISION()) {
        int p = d.precision();
        int s = d.scale();
        return new Mapped(
            DataTypes.createDecimalType(p, s),
            false,
            v -> {
              if (v == null) {
                return null;
              }
              Decimal decimal = Decimal.apply((BigDecimal) v);
              decimal.changePrecision(p, s);
              return decimal;
            });
      }
      return new Mapped(
          DataTypes.StringType,
          false,
          v -> v == null ? null : UTF8String.fromString(((BigDecimal) v).toPlainString()));
    }
    if (type instanceof YtOptional o) {
      Mapped item = map(o.item());
      if (!o.item().isNullable()) {
        return new Mapped(item.type(), true, item.converter());
      }
      ValueConverter inner = item.converter();
      return new Mapped(
          DataTypes.createStructType(
              new StructField[] {DataTypes.createStructField("value", item.type(), true)}),
          true,
          v -> v == null ? null : new GenericInternalRow(new Object[] {inner.convert(first(v))}));
    }
    if (type instanceof YtList l) {
      Mapped item = map(l.item());
      ValueConverter inner = item.converter();
      return new Mapped(
          DataTypes.createArrayType(item.type(), item.nullable()),
          false,
          v -> {
            if (v == null) {
              return null;
            }
            List<?> items = (List<?>) v;
            Object[] out = new Object[items.size()];
            for (int i = 0; i < out.length; i++) {
              out[i] = inner.convert(items.get(i));
            }
            return new GenericArrayData(out);
          });
    }
    if (type instanceof YtTuple t) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < t.elements().size(); i++) {
        names.add(tupleField(i));
      }
      return positional(names, t.elements());
    }
    if (type instanceof YtStruct s) {
      List<String> names = new ArrayList<>();
      List<YtType> types = new ArrayList<>();
      for (YtMember m : s.members()) {
        names.add(m.name());
        types.add(m.type());
      }
      Mapped byPosition = positional(names, types);
      ValueConverter rows = byPosition.converter();
      return new Mapped(
          byPosition.type(),
          false,
          v -> {
            if (v == null) {
              return null;
            }
            Map<?, ?> map = (Map<?, ?>) v;
            List<Object> values = new ArrayList<>(names.size());
            for (String name : names) {
              values.add(map.get(name));
            }
            return rows.convert(values);
          });
    }
    if (type instanceof YtDict d) {
      return dict(d);
    }
    if (type instanceof YtVariantTuple v) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < v.elements().size(); i++) {
        names.add(variantTupleField(i));
      }
      return variant(names, v.elements(), null);
    }
    if (type instanceof YtVariantStruct v) {
      List<String> names = new ArrayList<>();
      List<String> labels = new ArrayList<>();
      List<YtType> types = new ArrayList<>();
      for (YtMember m : v.members()) {
        names.add(variantStructField(m.name()));
        labels.add(m.name());
        types.add(m.type());
      }
      return variant(names, types, labels);
    }
    throw new IllegalArgumentException("no Spark mapping for " + type.describe());
  }

  static String tupleField(int index) {
    return "_" + (index + 1);
  }

  static String variantTupleField(int index) {
    return "_v_" + (index + 1);
  }

  static String variantStructField(String member) {
    return "_v" + member;
  }

  private static Object first(Object wrapped) {
    return ((List<?>) wrapped).get(0);
  }

  /** A struct from a list of values in field order. */
  private static Mapped positional(List<String> names, List<YtType> types) {
    StructField[] fields = new StructField[names.size()];
    ValueConverter[] converters = new ValueConverter[names.size()];
    for (int i = 0; i < fields.length; i++) {
      Mapped m = map(types.get(i));
      fields[i] = DataTypes.createStructField(names.get(i), m.type(), m.nullable());
      converters[i] = m.converter();
    }
    return new Mapped(
        DataTypes.createStructType(fields),
        false,
        v -> {
          if (v == null) {
            return null;
          }
          List<?> values = (List<?>) v;
          Object[] out = new Object[converters.length];
          for (int i = 0; i < out.length; i++) {
            out[i] = converters[i].convert(values.get(i));
          }
          return new GenericInternalRow(out);
        });
  }

  private static Mapped dict(YtDict d) {
    Mapped key = map(d.key());
    Mapped value = map(d.value());
    ValueConverter k = key.converter();
    ValueConverter val = value.converter();
    if (d.key().isNullable()) {
      Mapped entries = positional(List.of("key", "value"), List.of(d.key(), d.value()));
      ValueConverter entry = entries.converter();
      return new Mapped(
          DataTypes.createArrayType(entries.type(), false),
          false,
          v -> {
            if (v == null) {
              return null;
            }
            List<?> pairs = (List<?>) v;
            Object[] out = new Object[pairs.size()];
            for (int i = 0; i < out.length; i++) {
              out[i] = entry.convert(pairs.get(i));
            }
            return new GenericArrayData(out);
          });
    }
    return new Mapped(
        DataTypes.createMapType(key.type(), value.type(), value.nullable()),
        false,
        v -> {
          if (v == null) {
            return null;
          }
          List<?> pairs = (List<?>) v;
          Object[] keys = new Object[pairs.size()];
          Object[] values = new Object[pairs.size()];
          for (int i = 0; i < keys.length; i++) {
            List<?> pair = (List<?>) pairs.get(i);
            keys[i] = k.convert(pair.get(0));
            values[i] = val.convert(pair.get(1));
          }
          return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
        });
  }

  /** A variant: a struct of nullable fields, the chosen alternative's set. */
  private static Mapped variant(List<String> names, List<YtType> types, List<String> labels) {
    StructField[] fields = new StructField[names.size()];
    ValueConverter[] converters = new ValueConverter[names.size()];
    for (int i = 0; i < fields.length; i++) {
      Mapped m = map(types.get(i));
      fields[i] = DataTypes.createStructField(names.get(i), m.type(), true);
      converters[i] = m.converter();
    }
    List<String> labelList = labels == null ? null : List.copyOf(labels);
    return new Mapped(
        DataTypes.createStructType(fields),
        false,
        v -> {
          if (v == null) {
            return null;
          }
          List<?> pair = (List<?>) v;
          int index =
              labelList == null
                  ? ((Long) pair.get(0)).intValue()
                  : labelList.indexOf((String) pair.get(0));
          Object[] out = new Object[converters.length];
          out[index] = converters[index].convert(pair.get(1));
          return new GenericInternalRow(out);
        });
  }

  private static Mapped primitive(YtPrimitive p) {
    return switch (p) {
      case INT8 ->
          new Mapped(DataTypes.ByteType, false, v -> v == null ? null : asLong(v).byteValue());
      case INT16, UINT8 ->
          new Mapped(DataTypes.ShortType, false, v -> v == null ? null : asLong(v).shortValue());
      case INT32, UINT16 ->
          new Mapped(DataTypes.IntegerType, false, v -> v == null ? null : asLong(v).intValue());
      case INT64, UINT32, INTERVAL, INTERVAL64 ->
          new Mapped(DataTypes.LongType, false, YtToSpark::asLongValue);
      case UINT64 ->
          new Mapped(
              DataTypes.createDecimalType(20, 0),
              false,
              v -> v == null ? null : Decimal.apply(new BigDecimal(unsigned(asLong(v)))));
      case FLOAT ->
          new Mapped(DataTypes.FloatType, false, v -> v == null ? null : ((Double) v).floatValue());
      case DOUBLE -> new Mapped(DataTypes.DoubleType, false, v -> v);
      case BOOL -> new Mapped(DataTypes.BooleanType, false, v -> v);
      case STRING, UTF8, JSON ->
          new Mapped(
              DataTypes.StringType,
              false,
              v -> {
                if (v == null) {
                  return null;
                }
                if (v instanceof TextSlice t) {
                  // The answer's bytes are never changed: Spark's string can point into them.
                  return UTF8String.fromAddress(
                      t.array(), Platform.BYTE_ARRAY_OFFSET + t.offset(), t.length());
                }
                return v instanceof byte[] b
                    ? UTF8String.fromBytes(b)
                    : UTF8String.fromString(v.toString());
              });
      case UUID ->
          new Mapped(
              DataTypes.StringType,
              false,
              v -> v == null ? null : UTF8String.fromString(uuidText((byte[]) v)));
      case DATE, DATE32 ->
          new Mapped(DataTypes.DateType, false, v -> v == null ? null : asLong(v).intValue());
      case DATETIME, DATETIME64 ->
          new Mapped(
              DataTypes.TimestampType,
              false,
              v -> v == null ? null : Math.multiplyExact(asLong(v), 1_000_000L));
      case TIMESTAMP, TIMESTAMP64 ->
          new Mapped(DataTypes.TimestampType, false, v -> v == null ? null : asLong(v));
      case YSON -> new Mapped(DataTypes.BinaryType, true, v -> v == null ? null : Yson.toBinary(v));
      case VOID, NULL -> new Mapped(DataTypes.NullType, true, v -> null);
    };
  }

  /** A long column's value as is when it already is a {@link Long} (no re-boxing per value). */
  private static Object asLongValue(Object v) {
    return v == null || v instanceof Long ? v : asLong(v);
  }

  private static Long asLong(Object v) {
    return ((Number) v).longValue();
  }

  static BigInteger unsigned(long bits) {
    BigInteger value = BigInteger.valueOf(bits & Long.MAX_VALUE);
    return bits < 0 ? value.setBit(63) : value;
  }

  /** The 16 bytes in order as {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}. */
  static String uuidText(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    return new UUID(buffer.getLong(), buffer.getLong()).toString();
  }
}
