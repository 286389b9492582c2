package io.ytstream.spark.types;

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
import io.ytstream.types.value.YtValues;
import io.ytstream.types.yson.Yson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
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
 * Which Spark types may be written into a column of a type_v3 type, and the conversion of their
 * Catalyst values to row values. It accepts what {@link YtToSpark} produces (so a read column can
 * be written back unchanged) and more: any Spark integer type into any integer column (values are
 * range-checked), {@code decimal(p,0)} into integers, float into double and back, timestamp_ntz for
 * timestamps, binary for {@code string}, and binary YSON for every composite column in both modes.
 * A Spark struct, array or map goes into a typed composite column only with {@code write_type_v3};
 * into a {@code yson} column it is written as YSON in either mode.
 */
public final class SparkToYt {

  private static final BigInteger UINT64_LIMIT = BigInteger.ONE.shiftLeft(64);
  private static final Pattern UUID_TEXT =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  /** A DataFrame type that cannot go into a column type: where inside the value, and the fix. */
  public static final class Mismatch extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String fix;

    Mismatch(String message, String fix) {
      super(message);
      this.fix = fix;
    }

    public String fix() {
      return fix;
    }
  }

  private SparkToYt() {}

  /**
   * The converter for a top-level column; its values are checked against the column type ({@link
   * YtValues#normalize}) with errors naming the column.
   *
   * @throws Mismatch when no value of {@code source} can go into {@code target}
   */
  public static ValueConverter column(String name, YtType target, DataType source, boolean typeV3) {
    ValueConverter inner = convert(target, source, name, typeV3, true);
    String where = "column " + name;
    YtTypeRef ref = new YtTypeRef(target);
    return v -> YtValues.normalize(ref.get(), v == null ? null : inner.convert(v), where);
  }

  private static ValueConverter convert(
      YtType target, DataType source, String path, boolean typeV3, boolean top) {
    if (target instanceof YtTagged t) {
      return convert(t.item(), source, path, typeV3, top);
    }
    if (target instanceof YtOptional o && !o.item().isNullable()) {
      ValueConverter item = convert(o.item(), source, path, typeV3, top);
      return v -> v == null ? null : item.convert(v);
    }
    if (target == YtPrimitive.YSON) {
      if (source instanceof BinaryType) {
        return v -> v == null ? null : Yson.parse((byte[]) v);
      }
      return SparkToYson.of(source, path);
    }
    boolean composite = YtToSpark.isComposite(target);
    if (composite && source instanceof BinaryType) {
      YtTypeRef ref = new YtTypeRef(target);
      return v ->
          v == null ? null : YsonRepresentation.fromYson(ref.get(), Yson.parse((byte[]) v), path);
    }
    if (composite && top && !typeV3) {
      throw new Mismatch(
          path
              + " is a composite type; without write_type_v3 composite columns are written as"
              + " binary YSON",
          "set .option(\"write_type_v3\", \"true\") (or the session setting "
              + TypeV3Options.WRITE_SETTING
              + "=true) to write Spark structs, arrays and maps into typed composite columns, or"
              + " pass the value as binary YSON");
    }
    if (target instanceof YtPrimitive p) {
      return primitive(p, source, path);
    }
    if (target instanceof YtDecimal d) {
      return decimal(d, source, path);
    }
    if (target instanceof YtOptional o) {
      // optional of a nullable type: struct<value: T>, as YtToSpark reads it.
      if (source instanceof StructType s && s.fields().length == 1) {
        DataType itemType = s.fields()[0].dataType();
        ValueConverter item = convert(o.item(), itemType, path + ".value", typeV3, false);
        return v -> {
          if (v == null) {
            return null;
          }
          InternalRow row = (InternalRow) v;
          List<Object> wrapped = new ArrayList<>(1);
          wrapped.add(row.isNullAt(0) ? null : item.convert(row.get(0, itemType)));
          return wrapped;
        };
      }
      throw mismatch(path, target, source, "a struct with one field, value");
    }
    if (target instanceof YtList l && source instanceof ArrayType a) {
      DataType e = a.elementType();
      ValueConverter item = convert(l.item(), e, path + "[]", typeV3, false);
      return v -> array((ArrayData) v, e, item);
    }
    if (target instanceof YtTuple t && source instanceof StructType s) {
      if (s.fields().length != t.elements().size()) {
        throw mismatch(
            path, target, source, "a struct of " + t.elements().size() + " fields (_1, _2, ..)");
      }
      ValueConverter[] items = new ValueConverter[s.fields().length];
      DataType[] types = new DataType[s.fields().length];
      for (int i = 0; i < items.length; i++) {
        types[i] = s.fields()[i].dataType();
        items[i] =
            convert(
                t.elements().get(i), types[i], path + "." + s.fields()[i].name(), typeV3, false);
      }
      return v -> {
        if (v == null) {
          return null;
        }
        InternalRow row = (InternalRow) v;
        List<Object> out = new ArrayList<>(items.length);
        for (int i = 0; i < items.length; i++) {
          out.add(row.isNullAt(i) ? null : items[i].convert(row.get(i, types[i])));
        }
        return out;
      };
    }
    if (target instanceof YtStruct t && source instanceof StructType s) {
      return struct(t, s, path, typeV3);
    }
    if (target instanceof YtDict d) {
      return dict(d, source, path, typeV3);
    }
    if (target instanceof YtVariantTuple t && source instanceof StructType s) {
      List<String> names = new ArrayList<>();
      List<Object> labels = new ArrayList<>();
      for (int i = 0; i < t.elements().size(); i++) {
        names.add(YtToSpark.variantTupleField(i));
        labels.add((long) i);
      }
      return variant(target, t.elements(), names, labels, s, path, typeV3);
    }
    if (target instanceof YtVariantStruct t && source instanceof StructType s) {
      List<String> names = new ArrayList<>();
      List<Object> labels = new ArrayList<>();
      List<YtType> types = new ArrayList<>();
      for (YtMember m : t.members()) {
        names.add(YtToSpark.variantStructField(m.name()));
        labels.add(m.name());
        types.add(m.type());
      }
      return variant(target, types, names, labels, s, path, typeV3);
    }
    throw mismatch(path, target, source, YtToSpark.map(target).type().simpleString());
  }

  /** A column's type as messages show it: a nullable column's {@code optional<T>} as T. */
  public static String columnTypeName(YtType type) {
    if (type instanceof YtOptional o && !o.item().isNullable()) {
      return o.item().describe();
    }
    return type.describe();
  }

  private static Mismatch mismatch(String path, YtType target, DataType source, String expected) {
    return new Mismatch(
        path + ": Spark " + source.simpleString() + " cannot be written to " + target.describe(),
        "give " + expected + " there");
  }

  private static List<Object> array(ArrayData data, DataType element, ValueConverter item) {
    if (data == null) {
      return null;
    }
    List<Object> out = new ArrayList<>(data.numElements());
    for (int i = 0; i < data.numElements(); i++) {
      out.add(data.isNullAt(i) ? null : item.convert(data.get(i, element)));
    }
    return out;
  }

  private static ValueConverter struct(YtStruct t, StructType s, String path, boolean typeV3) {
    StructField[] fields = s.fields();
    ValueConverter[] items = new ValueConverter[fields.length];
    List<String> members = new ArrayList<>();
    t.members().forEach(m -> members.add(m.name()));
    for (int i = 0; i < fields.length; i++) {
      int at = members.indexOf(fields[i].name());
      if (at < 0) {
        throw new Mismatch(
            path
                + ": the DataFrame's struct has field "
                + fields[i].name()
                + ", which "
                + t.describe()
                + " does not have",
            "select the members " + members + " only");
      }
      items[i] =
          convert(
              t.members().get(at).type(),
              fields[i].dataType(),
              path + "." + fields[i].name(),
              typeV3,
              false);
    }
    for (YtMember m : t.members()) {
      if (!m.type().isNullable() && s.getFieldIndex(m.name()).isEmpty()) {
        throw new Mismatch(
            path
                + ": member "
                + m.name()
                + " of "
                + t.describe()
                + " is required but the"
                + " DataFrame's struct has no such field",
            "add field " + m.name() + " to the struct");
      }
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

  private static ValueConverter dict(YtDict d, DataType source, String path, boolean typeV3) {
    if (source instanceof MapType m) {
      DataType kt = m.keyType();
      DataType vt = m.valueType();
      ValueConverter k = convert(d.key(), kt, path + ".key", typeV3, false);
      ValueConverter val = convert(d.value(), vt, path + ".value", typeV3, false);
      return v -> {
        if (v == null) {
          return null;
        }
        MapData map = (MapData) v;
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        List<Object> out = new ArrayList<>(map.numElements());
        for (int i = 0; i < map.numElements(); i++) {
          List<Object> pair = new ArrayList<>(2);
          pair.add(k.convert(keys.get(i, kt)));
          pair.add(values.isNullAt(i) ? null : val.convert(values.get(i, vt)));
          out.add(pair);
        }
        return out;
      };
    }
    if (source instanceof ArrayType a
        && a.elementType() instanceof StructType s
        && s.fields().length == 2) {
      DataType kt = s.fields()[0].dataType();
      DataType vt = s.fields()[1].dataType();
      ValueConverter k = convert(d.key(), kt, path + ".key", typeV3, false);
      ValueConverter val = convert(d.value(), vt, path + ".value", typeV3, false);
      return v -> {
        if (v == null) {
          return null;
        }
        ArrayData entries = (ArrayData) v;
        List<Object> out = new ArrayList<>(entries.numElements());
        for (int i = 0; i < entries.numElements(); i++) {
          InternalRow entry = entries.getStruct(i, 2);
          List<Object> pair = new ArrayList<>(2);
          pair.add(entry.isNullAt(0) ? null : k.convert(entry.get(0, kt)));
          pair.add(entry.isNullAt(1) ? null : val.convert(entry.get(1, vt)));
          out.add(pair);
        }
        return out;
      };
    }
    throw mismatch(path, d, source, "a map, or an array of struct<key,value>");
  }

  private static ValueConverter variant(
      YtType target,
      List<YtType> types,
      List<String> names,
      List<Object> labels,
      StructType s,
      String path,
      boolean typeV3) {
    StructField[] fields = s.fields();
    ValueConverter[] items = new ValueConverter[fields.length];
    Object[] fieldLabels = new Object[fields.length];
    Object nullable = null;
    int nullableCount = 0;
    for (int i = 0; i < fields.length; i++) {
      int at = names.indexOf(fields[i].name());
      if (at < 0) {
        throw new Mismatch(
            path
                + ": the DataFrame's struct has field "
                + fields[i].name()
                + ", which is no"
                + " alternative of "
                + target.describe(),
            "name the fields after the alternatives: " + names);
      }
      fieldLabels[i] = labels.get(at);
      items[i] =
          convert(
              types.get(at), fields[i].dataType(), path + "." + fields[i].name(), typeV3, false);
      if (types.get(at).isNullable()) {
        nullable = labels.get(at);
        nullableCount++;
      }
    }
    // All fields null is a null value of the one nullable alternative; with several it is unclear.
    Object nullLabel = nullableCount == 1 ? nullable : null;
    String describe = target.describe();
    return v -> {
      if (v == null) {
        return null;
      }
      InternalRow row = (InternalRow) v;
      List<Object> out = null;
      for (int i = 0; i < fields.length; i++) {
        if (!row.isNullAt(i)) {
          if (out != null) {
            throw new IllegalArgumentException(
                path + ": a " + describe + " value sets exactly one field; this one sets several");
          }
          out = new ArrayList<>(2);
          out.add(fieldLabels[i]);
          out.add(items[i].convert(row.get(i, fields[i].dataType())));
        }
      }
      if (out == null) {
        if (nullLabel == null) {
          throw new IllegalArgumentException(
              path + ": a " + describe + " value sets exactly one field; this one sets none");
        }
        out = new ArrayList<>(2);
        out.add(nullLabel);
        out.add(null);
      }
      return Collections.unmodifiableList(out);
    };
  }

  private static boolean integral(DataType s) {
    return s instanceof ByteType
        || s instanceof ShortType
        || s instanceof IntegerType
        || s instanceof LongType;
  }

  private static boolean timestamp(DataType s) {
    return s instanceof TimestampType || s instanceof TimestampNTZType;
  }

  private static ValueConverter primitive(YtPrimitive p, DataType s, String path) {
    switch (p) {
      case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, INTERVAL, INTERVAL64:
        if (integral(s)) {
          return v -> ((Number) v).longValue();
        }
        if (s instanceof DecimalType d && d.scale() == 0) {
          return v -> wholeNumber((Decimal) v, path).longValue();
        }
        if ((p == YtPrimitive.INTERVAL || p == YtPrimitive.INTERVAL64)
            && s instanceof DayTimeIntervalType) {
          return v -> v;
        }
        break;
      case UINT64:
        if (integral(s)) {
          return v -> {
            long l = ((Number) v).longValue();
            if (l < 0) {
              throw new IllegalArgumentException(path + ": " + l + " is out of range for uint64");
            }
            return l;
          };
        }
        if (s instanceof DecimalType d && d.scale() == 0) {
          return v -> {
            BigInteger i = wholeNumber((Decimal) v, path);
            if (i.signum() < 0 || i.compareTo(UINT64_LIMIT) >= 0) {
              throw new IllegalArgumentException(
                  path + ": " + i + " is out of range for uint64 [0, 2^64-1]");
            }
            return i.longValue();
          };
        }
        break;
      case FLOAT, DOUBLE:
        if (s instanceof FloatType || s instanceof DoubleType) {
          return v -> ((Number) v).doubleValue();
        }
        break;
      case BOOL:
        if (s instanceof BooleanType) {
          return v -> v;
        }
        break;
      case STRING, UTF8, JSON:
        if (s instanceof StringType) {
          return v -> ((UTF8String) v).getBytes();
        }
        if (s instanceof BinaryType) {
          return v -> v;
        }
        break;
      case UUID:
        if (s instanceof StringType) {
          return v -> uuidBytes(v.toString(), path);
        }
        if (s instanceof BinaryType) {
          return v -> v;
        }
        break;
      case DATE, DATE32:
        if (s instanceof DateType) {
          return v -> ((Integer) v).longValue();
        }
        break;
      case DATETIME, DATETIME64:
        if (timestamp(s)) {
          return v -> Math.floorDiv((Long) v, 1_000_000L);
        }
        break;
      case TIMESTAMP, TIMESTAMP64:
        if (timestamp(s)) {
          return v -> v;
        }
        break;
      case VOID, NULL:
        if (s instanceof NullType) {
          return v -> null;
        }
        break;
      case YSON:
        break;
    }
    throw new Mismatch(
        path + ": Spark " + s.simpleString() + " cannot be written to " + p.v3Name(),
        "cast it, e.g. col(\"" + path + "\").cast(\"" + YtToSpark.map(p).type().typeName() + "\")");
  }

  private static BigInteger wholeNumber(Decimal d, String path) {
    try {
      return d.toJavaBigDecimal().toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(path + ": " + d + " is not a whole number", e);
    }
  }

  private static ValueConverter decimal(YtDecimal target, DataType s, String path) {
    if (s instanceof DecimalType) {
      return v -> ((Decimal) v).toJavaBigDecimal();
    }
    if (integral(s)) {
      return v -> BigDecimal.valueOf(((Number) v).longValue());
    }
    if (s instanceof StringType) {
      String describe = target.describe();
      return v -> {
        try {
          return new BigDecimal(v.toString());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              path + ": '" + v + "' is not a decimal number for " + describe, e);
        }
      };
    }
    throw new Mismatch(
        path + ": Spark " + s.simpleString() + " cannot be written to " + target.describe(),
        "cast it, e.g. col(\""
            + path
            + "\").cast(\"decimal("
            + Math.min(target.precision(), 38)
            + ","
            + target.scale()
            + ")\")");
  }

  static byte[] uuidBytes(String text, String path) {
    if (!UUID_TEXT.matcher(text).matches()) {
      throw new IllegalArgumentException(
          path + ": '" + text + "' is not a uuid (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
    }
    UUID uuid = UUID.fromString(text);
    return ByteBuffer.allocate(16)
        .putLong(uuid.getMostSignificantBits())
        .putLong(uuid.getLeastSignificantBits())
        .array();
  }
}
