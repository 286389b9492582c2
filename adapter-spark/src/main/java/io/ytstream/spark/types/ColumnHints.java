package io.ytstream.spark.types;

import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.types.v3.YtDecimal;
import io.ytstream.types.v3.YtDict;
import io.ytstream.types.v3.YtList;
import io.ytstream.types.v3.YtMember;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtStruct;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.value.HintedRead;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * SPYT's schema hints on a source's columns: a read option {@code <column>_hint} whose value is a
 * Spark type in JSON (what SPYT's {@code schema_hint} sends: {@code DataType.json()}), read by
 * {@code DataType.fromJson} as SPYT reads it. The hinted Spark type becomes a type_v3 type here
 * (Spark's types as {@link YtToSpark} maps them back), and yt-types' {@link HintedRead} decides
 * whether and how the column's values are read as it. A hint equal to the column's own type (its
 * type_v3 mapping) reads the column typed, as {@code parsing_type_v3} would.
 */
public final class ColumnHints {

  private ColumnHints() {}

  /**
   * The source's columns with the hints applied.
   *
   * @param hints option name as given → value
   * @param queues the queues read, for messages
   * @throws IllegalArgumentException naming the option, its value and the fix, for a hint on a
   *     column the queues do not have, a value that is not a Spark type in JSON, a Spark type the
   *     source cannot read into, or a type the column's values do not fit
   */
  public static List<ColumnSpec> apply(
      Map<String, String> hints, List<Column> columns, boolean typeV3, String queues) {
    Map<String, String> optionOf = new TreeMap<>();
    Map<String, String> valueOf = new TreeMap<>();
    for (Map.Entry<String, String> hint : hints.entrySet()) {
      String option = hint.getKey();
      String column = column(option, hint.getValue(), columns, queues);
      String earlier = optionOf.put(column, option);
      if (earlier != null) {
        throw new IllegalArgumentException(
            "options '"
                + earlier
                + "' and '"
                + option
                + "' both hint column '"
                + column
                + "': keep one of them");
      }
      valueOf.put(column, hint.getValue());
    }
    List<ColumnSpec> out = new ArrayList<>(columns.size());
    for (Column c : columns) {
      String option = optionOf.get(c.name());
      out.add(
          option == null
              ? ColumnSpec.forRead(c.name(), c.typeV3(), typeV3)
              : hinted(option, valueOf.get(c.name()), c));
    }
    return out;
  }

  /** The column an option hints: its name before {@code _hint}, exact or in any case (SPYT's). */
  private static String column(String option, String value, List<Column> columns, String queues) {
    String name = option.substring(0, option.length() - YtOptions.HINT_SUFFIX.length());
    List<String> names = new ArrayList<>();
    List<String> matches = new ArrayList<>();
    for (Column c : columns) {
      names.add(c.name());
      if (c.name().equals(name)) {
        return name;
      }
      if (c.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        matches.add(c.name());
      }
    }
    if (matches.size() == 1) {
      return matches.get(0);
    }
    throw new IllegalArgumentException(
        "option '"
            + option
            + "' = '"
            + value
            + "' is a schema hint for column '"
            + name
            + "', which "
            + (matches.isEmpty()
                ? queues + " does not have"
                : queues + " has in several cases (" + String.join(", ", matches) + ")")
            + ". Its columns: "
            + String.join(", ", names)
            + ". Name the column before _hint exactly (option '<column>_hint'), or remove the"
            + " option");
  }

  private static ColumnSpec hinted(String option, String value, Column column) {
    DataType hint;
    try {
      hint = DataType.fromJson(value);
    } catch (Exception e) {
      // Jackson's parse errors arrive undeclared through Scala, so any exception counts.
      throw new IllegalArgumentException(
          "option '"
              + option
              + "' = '"
              + value
              + "' is not a Spark data type in JSON ("
              + e.getMessage()
              + "). Give the type as Spark's DataType.json() writes it, which SPYT's schema_hint"
              + " sends, e.g. '\"long\"' or '{\"type\":\"struct\",\"fields\":[{\"name\":\"zip\","
              + "\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}'; type_v3 in YSON,"
              + " which SPYT before 2.4 took, is not read (SPYT no longer reads it either)",
          e);
    }
    YtType type = column.typeV3();
    if (hint.equals(YtToSpark.column(type, true).type())) {
      return ColumnSpec.forRead(column.name(), type, true);
    }
    YtType target;
    try {
      target = ytType(hint);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "option '"
              + option
              + "' = '"
              + value
              + "': "
              + e.getMessage()
              + ". A hint is one of byte, short, integer, long, float, double, boolean, string,"
              + " binary (YSON), date, timestamp, decimal(p,s), or arrays, structs and maps of"
              + " them",
          e);
    }
    HintedRead.Decision decision = HintedRead.decide(type, target);
    if (decision instanceof HintedRead.Refused refused) {
      throw new IllegalArgumentException(
          "option '"
              + option
              + "' = '"
              + value
              + "' asks to read column "
              + column.name()
              + " ("
              + type.describe()
              + ") as "
              + hint.simpleString()
              + ", but "
              + refused.reason()
              + ". Remove the option to read the column as "
              + YtToSpark.column(type, true).type().simpleString()
              + " and convert it in the query, e.g. col(\""
              + column.name()
              + "\").cast(\""
              + hint.simpleString()
              + "\")");
    }
    return ColumnSpec.hinted(column.name(), type, target, option);
  }

  /**
   * The type_v3 type a Spark type is read as: the one {@link YtToSpark} maps to it, with a nullable
   * field, element or map value optional.
   */
  static YtType ytType(DataType t) {
    if (t.equals(DataTypes.ByteType)) {
      return YtPrimitive.INT8;
    }
    if (t.equals(DataTypes.ShortType)) {
      return YtPrimitive.INT16;
    }
    if (t.equals(DataTypes.IntegerType)) {
      return YtPrimitive.INT32;
    }
    if (t.equals(DataTypes.LongType)) {
      return YtPrimitive.INT64;
    }
    if (t.equals(DataTypes.FloatType)) {
      return YtPrimitive.FLOAT;
    }
    if (t.equals(DataTypes.DoubleType)) {
      return YtPrimitive.DOUBLE;
    }
    if (t.equals(DataTypes.BooleanType)) {
      return YtPrimitive.BOOL;
    }
    if (t.equals(DataTypes.StringType)) {
      return YtPrimitive.STRING;
    }
    if (t.equals(DataTypes.BinaryType)) {
      return YtPrimitive.YSON;
    }
    if (t.equals(DataTypes.DateType)) {
      return YtPrimitive.DATE32;
    }
    if (t.equals(DataTypes.TimestampType)) {
      return YtPrimitive.TIMESTAMP64;
    }
    if (t.equals(DataTypes.NullType)) {
      return YtPrimitive.NULL;
    }
    if (t instanceof DecimalType d && d.precision() >= 1) {
      return new YtDecimal(d.precision(), d.scale());
    }
    if (t instanceof ArrayType a) {
      return new YtList(nullable(ytType(a.elementType()), a.containsNull()));
    }
    if (t instanceof MapType m) {
      return new YtDict(
          ytType(m.keyType()), nullable(ytType(m.valueType()), m.valueContainsNull()));
    }
    if (t instanceof StructType s) {
      List<YtMember> members = new ArrayList<>();
      for (StructField f : s.fields()) {
        members.add(new YtMember(f.name(), nullable(ytType(f.dataType()), f.nullable())));
      }
      try {
        return new YtStruct(members);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "struct " + s.simpleString() + " has no YTsaurus form: " + e.getMessage(), e);
      }
    }
    throw new IllegalArgumentException(
        "Spark type " + t.simpleString() + " is not one the yt source reads a column as");
  }

  private static YtType nullable(YtType type, boolean nullable) {
    return nullable && !type.isNullable() ? new YtOptional(type) : type;
  }
}
